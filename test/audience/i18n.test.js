// The page's own words (web/audience/src/i18n.js): every language has every English key with the
// same {placeholders}; the phone's languages pick the table (region and case ignored, first match
// wins), anything else falls back to English; plurals follow the language.
import { TABLES, pickLanguage, setLanguage, t } from '../../web/audience/src/i18n.js';

const placeholders = (s) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

test('every table has exactly the English keys, each with the same placeholders and no blank', () => {
  const keys = Object.keys(TABLES.en).sort();
  expect(Object.keys(TABLES).sort()).toEqual(['de', 'en', 'es', 'fr', 'it']);
  for (const [lang, table] of Object.entries(TABLES)) {
    expect({ lang, keys: Object.keys(table).sort() }).toEqual({ lang, keys });
    for (const key of keys) {
      expect({ lang, key, vars: placeholders(table[key]) }).toEqual({ lang, key, vars: placeholders(TABLES.en[key]) });
      expect(table[key].trim()).not.toBe('');
    }
  }
});

test("the first of the phone's languages with a table; English otherwise", () => {
  expect(pickLanguage(['de-AT', 'en-GB'])).toBe('de');
  expect(pickLanguage(['ja-JP', 'fr-CH', 'de'])).toBe('fr');
  expect(pickLanguage(['ES'])).toBe('es');
  expect(pickLanguage(['it_IT'])).toBe('it');
  expect(pickLanguage(['ja-JP', 'zh'])).toBe('en');
  expect(pickLanguage([])).toBe('en');
  expect(pickLanguage(undefined)).toBe('en');
});

test("placeholders filled, plurals by the language's rules", () => {
  setLanguage('en');
  expect(t('vote.soFar', { n: 1 })).toBe('1 vote so far');
  expect(t('vote.soFar', { n: 0 })).toBe('0 votes so far');
  setLanguage('fr');
  expect(t('vote.soFar', { n: 0 })).toBe('0 vote pour l’instant'); // French: 0 is singular
  setLanguage('de');
  expect(t('progress.bar', { bar: 3, bars: 16 })).toBe('Takt 3 von 16');
  expect(t('no.such.key')).toBe('no.such.key');
  setLanguage('en');
});
