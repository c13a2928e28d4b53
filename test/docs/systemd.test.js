// The example systemd unit and env file (docs/systemd/) are what a venue copies as they are:
// every variable in the env file, commented-out examples included, must be a real `tutti serve`
// flag with a valid value, and the unit must restart on failure with that env file.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseServeArgs, SERVE_FLAGS } from '../../local-server/src/cli/config.js';

const read = (name) => readFileSync(fileURLToPath(new URL(`../../docs/systemd/${name}`, import.meta.url)), 'utf8');

test('every TUTTI_* line of tutti.env (examples too) is a known flag with a valid value', () => {
  const assignments = read('tutti.env')
    .split('\n')
    .map((l) => l.replace(/^#(?=TUTTI_)/, ''))
    .filter((l) => /^TUTTI_[A-Z_]+=/.test(l));
  expect(assignments.length).toBeGreaterThanOrEqual(8);
  const env = Object.fromEntries(assignments.map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]));
  const known = new Set(SERVE_FLAGS.map((f) => `TUTTI_${f.name.toUpperCase().replace(/-/g, '_')}`));
  expect(Object.keys(env).filter((k) => !known.has(k))).toEqual([]);
  const { errors, options } = parseServeArgs([], env);
  expect(errors).toEqual([]);
  expect(options).toMatchObject({ port: 8080, controlPort: 8081, oscInPort: 9100, maxClients: 400 });
});

test('the unit restarts always, reads the env file, runs the pinned node, and keeps state in /var/lib/tutti', () => {
  const unit = read('tutti.service');
  const setting = (key) => [...unit.matchAll(new RegExp(`^${key}=(.*)$`, 'gm'))].map((m) => m[1]);
  expect(setting('Restart')).toEqual(['always']);
  expect(setting('EnvironmentFile')).toEqual(['/etc/tutti/tutti.env']);
  expect(setting('ExecStart')[0]).toBe('/opt/tutti/node_modules/.bin/node /opt/tutti/local-server/bin/tutti.js serve');
  expect(setting('KillSignal')).toEqual(['SIGTERM']); // a clean stop clears the resume point
  expect(setting('StateDirectory')).toEqual(['tutti']);
  expect(setting('Environment')).toContain('XDG_STATE_HOME=/var/lib');
});
