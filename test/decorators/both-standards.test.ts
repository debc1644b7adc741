/**
 * Issue 13, finding 6: one fixture model compiled by this project's TypeScript twice, with legacy
 * decorators and with TC39 standard decorators (the TypeScript 5 default). Both compile without a
 * diagnostic (no TS1240), and both record the same model and the same explain report.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ts from 'typescript';
import { Field, Key, ModelError, TimeToLive, type Model } from '../../src';
import { thrown } from '../model/thrown';

const ROOT = path.resolve(__dirname, '..', '..');
const FIXTURES = path.join(__dirname, 'fixtures');
const SOURCE = path.join(FIXTURES, 'models.ts');

interface Fixture {
  model: Model;
  report(): string;
  buildUntyped(): Model;
}

const outDirs: string[] = [];
afterAll(() => outDirs.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

/** Type-checks and emits the fixture with one tsconfig; returns the diagnostics and the loaded module. */
function compile(tsconfig: string): { errors: string[]; load: () => Fixture } {
  const file = path.join(FIXTURES, tsconfig);
  const { config } = ts.readConfigFile(file, ts.sys.readFile.bind(ts.sys));
  const parsed = ts.parseJsonConfigFileContent(config, ts.sys, FIXTURES);
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'lifespan-decorators-'));
  outDirs.push(out);
  const program = ts.createProgram([SOURCE], { ...parsed.options, rootDir: ROOT, outDir: out, noEmit: false });
  const source = program.getSourceFile(SOURCE);
  // The fixture's own diagnostics (TS1240 and friends) are what this is about; checking all of
  // src under each tsconfig would only make the test slower.
  const errors = ts
    .getPreEmitDiagnostics(program, source)
    .filter((d) => d.category === ts.DiagnosticCategory.Error)
    .map((d) => `TS${d.code}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
  program.emit(source);
  // The emitted module imports '../../../src' and reflect-metadata: point them at this project's.
  fs.symlinkSync(path.join(ROOT, 'src'), path.join(out, 'src'), 'dir');
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(out, 'node_modules'), 'dir');
  const emitted = path.join(out, path.relative(ROOT, SOURCE)).replace(/\.ts$/, '.js');
  return { errors, load: () => require(emitted) as Fixture };
}

/** The model as plain data (the class objects differ between the two builds; their names do not). */
function plain(model: Model): unknown {
  return JSON.parse(JSON.stringify(model, (key, value: unknown) => (key === 'target' ? undefined : value)));
}

describe('the same model source, compiled with each decorator standard', () => {
  const legacy = compile('tsconfig.legacy.json');
  const standard = compile('tsconfig.standard.json');

  test('both compile without a diagnostic (no TS1240 under TC39 decorators)', () => {
    expect(legacy.errors).toEqual([]);
    expect(standard.errors).toEqual([]);
  });

  test('both record the same model', () => {
    const a = plain(legacy.load().model);
    expect(a).toEqual(plain(standard.load().model));
    expect(
      (a as { entities: Array<{ name: string; key: unknown }> }).entities.find((e) => e.name === 'Order')?.key,
    ).toEqual({
      partition: ['userId'],
      clustering: [{ member: 'id', order: 'asc' }],
    });
    // @Version (issue 26): the same member and type under either standard.
    const order = (a as { entities: Array<{ name: string; version: unknown; fields: unknown[] }> }).entities.find(
      (e) => e.name === 'Order',
    );
    expect(order?.version).toBe('version');
    expect(order?.fields).toContainEqual({
      member: 'version',
      storedName: 'version',
      type: 'integer',
      nullable: false,
    });
  });

  test('both record the same @ExpiresAt member', () => {
    const entities = (plain(legacy.load().model) as { entities: Array<{ name: string; ttl: unknown }> }).entities;
    // The whole TTL model of @ExpiresAt is pinned in test/model/expires-at.test.ts; here: the member is recorded.
    expect(entities.find((e) => e.name === 'Invitation')?.ttl).toMatchObject({
      seconds: null,
      instantMember: 'validUntil',
    });
  });

  test('both give the same explain report', () => {
    const text = legacy.load().report();
    expect(text).toContain('orders');
    expect(standard.load().report()).toBe(text);
  });

  test('a member with no initializer and no { type }: legacy reads design:type; TC39 gives a ModelError saying what to write', () => {
    expect(
      legacy
        .load()
        .buildUntyped()
        .entities[0]?.fields.map((f) => f.type),
    ).toEqual(['string', 'string']);
    let caught: unknown;
    try {
      standard.load().buildUntyped();
    } catch (error) {
      caught = error;
    }
    expect((caught as { constructor: { name: string } }).constructor.name).toBe('ModelError');
    expect(caught).toMatchObject({ code: 'MODEL_NO_TYPE' });
    expect((caught as Error).message).toMatch(/Untyped\.name.*TC39.*@Field\(\{ type: 'string' \}\)/s);
  });
});

describe('a decorator in a setting it does not support says which tsconfig option to set', () => {
  const placement = [
    ['a TC39 method', () => Field()(undefined, { kind: 'method', name: 'm', metadata: {} } as never), /on a method/],
    [
      'a TC39 static field',
      () => Key()(undefined, { kind: 'field', name: 'x', static: true, metadata: {} } as never),
      /static/,
    ],
    [
      'TC39 without Symbol.metadata',
      () => Field()(undefined, { kind: 'field', name: 'x', metadata: undefined } as never),
      /context\.metadata is undefined/,
    ],
    [
      'a legacy method',
      () => (Field() as unknown as (...a: unknown[]) => void)({}, 'm', { value: () => 1 }),
      /on a method/,
    ],
    [
      'a legacy method parameter',
      () => (Field() as unknown as (...a: unknown[]) => void)({}, 'm', 0),
      /is on a constructor or method parameter \(m\)/,
    ],
    [
      'a legacy constructor parameter',
      () => (Field() as unknown as (...a: unknown[]) => void)(class {}, undefined, 0),
      /is on a constructor or method parameter \(the constructor\)/,
    ],
    ['a legacy static', () => (Key() as unknown as (...a: unknown[]) => void)(class {}, 'x'), /static member/],
    ['neither standard', () => (Field() as unknown as (...a: unknown[]) => void)(1, 2), /neither decorator standard/],
    [
      '@TimeToLive called on nothing',
      () => (TimeToLive(60) as unknown as (...a: unknown[]) => void)(undefined),
      /not called with a class/,
    ],
  ] as const;
  test.each(placement)('%s', (_label, call, problem) => {
    const error = thrown(call);
    expect(error).toBeInstanceOf(ModelError);
    expect(error).toMatchObject({ code: 'MODEL_DECORATOR_UNSUPPORTED' });
    expect((error as Error).message).toMatch(problem);
    // Where the decorator was applied in a compile setting lifespan does not support, the tsconfig option is named.
    if (/metadata|neither|not called/.test(String(problem))) {
      expect((error as Error).message).toMatch(/experimentalDecorators/);
    }
  });
});
