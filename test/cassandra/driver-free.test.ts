/** The explainer and everything it compiles with must work without cassandra-driver installed. */
import * as fs from 'node:fs';
import * as path from 'node:path';

const FOLDER = path.resolve(__dirname, '..', '..', 'src', 'providers', 'cassandra');

/** Files reachable from explainer.ts through relative imports. */
function reachable(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  const source = fs.readFileSync(file, 'utf8');
  for (const match of source.matchAll(/^import\s+(?!type\b)[^;]*?from\s+'(\.[^']+)'/gm)) {
    reachable(path.resolve(path.dirname(file), `${match[1]}.ts`), seen);
  }
  return seen;
}

test('explainer, compile and plan import no driver at run time', () => {
  const files = [...reachable(path.join(FOLDER, 'explainer.ts')), ...reachable(path.join(FOLDER, 'plan.ts'))];
  expect(files.map((f) => path.basename(f))).toEqual(
    expect.arrayContaining(['explainer.ts', 'compile.ts', 'semantics.ts']),
  );
  const offenders = files.filter((f) =>
    /^import\s+(?!type\b)[^;]*from\s+'cassandra-driver'/m.test(fs.readFileSync(f, 'utf8')),
  );
  expect(offenders).toEqual([]);
});

test('no file of the provider imports the driver at run time: the user passes the client in', () => {
  const offenders = fs
    .readdirSync(FOLDER)
    .filter((f) =>
      /^import\s+(?!type\b)[^;]*from\s+'cassandra-driver'/m.test(fs.readFileSync(path.join(FOLDER, f), 'utf8')),
    );
  expect(offenders).toEqual([]);
});
