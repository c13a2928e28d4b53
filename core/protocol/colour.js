// What counts as a colour in the audience state (docs/reference/score-format.md#view--text-instruction-color-image-data- and tiles'
// `c`): `#rgb` or `#rrggbb`, nothing else. A CSS value such as `url(http://host/x)` is also
// "valid CSS" for a background and made every phone fetch a foreign host (docs/explanation/threat-model.md), so the
// score validator and the audience page both accept only this form.

/** `#rgb` or `#rrggbb`, hex digits in either case. */
export const COLOUR_PATTERN = /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;

/**
 * Whether a value is a colour the audience page may apply (`#rgb` or `#rrggbb`).
 * @param {unknown} value
 * @returns {value is string}
 */
export function isColour(value) {
  return typeof value === 'string' && COLOUR_PATTERN.test(value);
}
