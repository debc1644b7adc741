import * as fs from 'node:fs';
import * as path from 'node:path';
import { buildCli } from './build-cli';
import { fixtureProject, runCli } from './fixture-project';

/** Review items 5(a) and 13 on the TypeScript loader, with the built CLI as a subprocess. */
let cli: ReturnType<typeof buildCli>;
beforeAll(() => {
  cli = buildCli('loader-cli');
  fixtureProject(cli.outDir, 'cjs'); // the installable lifespan package next to the projects
}, 120_000);

/** A CommonJS TypeScript project made of `files`, with node_modules/lifespan linked to the build. */
function project(name: string, files: Record<string, string>): string {
  const dir = path.join(cli.outDir, 'projects', name);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(path.join(dir, 'node_modules'), { recursive: true });
  fs.symlinkSync(cli.outDir, path.join(dir, 'node_modules', 'lifespan-orm'), 'dir');
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name, private: true }));
  for (const [file, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, file), text);
  return dir;
}

async function cosmosSeconds(dir: string): Promise<number> {
  const run = await runCli(cli.main, dir, ['explain', 'models.ts', '--store', 'cosmos', '--format', 'json']);
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  return (JSON.parse(run.stdout) as { entries: { seconds: number }[] }).entries[0]!.seconds;
}

const MODELS = `import 'reflect-metadata';
import { Entity, Key, TimeToLive, ModelBuilder } from 'lifespan-orm';
import { TTL } from './settings';

@Entity('sessions')
@TimeToLive(TTL)
class Session {
  @Key() id!: string;
}

export const model = new ModelBuilder().entity(Session).build();
`;

const LEGACY = {
  compilerOptions: { module: 'commonjs', target: 'ES2022', experimentalDecorators: true, emitDecoratorMetadata: true },
};

test('CommonJS: a .ts source wins over a stale compiled .js beside it, as in the ESM hook (item 13)', async () => {
  const dir = project('stale-js', {
    'tsconfig.json': JSON.stringify(LEGACY),
    'models.ts': MODELS,
    'settings.ts': "export const TTL = '1h';\n",
    'settings.js': "exports.TTL = '2h'; // compiled before the last edit\n",
  });
  expect(await cosmosSeconds(dir)).toBe(3600);
});

test('a TS 5 project with TC39 decorators (no experimentalDecorators) loads as tsc compiles it (item 5a)', async () => {
  const dir = project('tc39', {
    'tsconfig.json': JSON.stringify({ compilerOptions: { module: 'commonjs', target: 'ES2022' } }),
    // The project's own TC39 decorator reads its context, which legacy compilation never passes.
    'models.ts': MODELS.replace("import 'reflect-metadata';\n", '')
      .replace('@Key() id!: string;', "@Key({ type: 'string' }) id!: string;")
      .replace(
        "@Entity('sessions')",
        "const named: string[] = [];\nfunction audited(_: unknown, context: ClassDecoratorContext) {\n  named.push(String(context.name));\n}\n\n@audited\n@Entity('sessions')",
      ),
    'settings.ts': "export const TTL = '15m';\n",
  });
  expect(await cosmosSeconds(dir)).toBe(900);
});
