/**
 * The driver packages a store declares in its descriptor (src/providers/<store>/descriptor.ts,
 * `driverPackages`) are the package's optional peers, and are all a store's folder loads.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import ts from 'typescript';
import { STORE_TEMPLATES } from '../../src/cli/init/store-templates';
import { DESCRIPTORS } from '../../src/providers/registry';

const ROOT = path.resolve(__dirname, '..', '..');
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
  peerDependencies: Record<string, string>;
  peerDependenciesMeta: Record<string, { optional?: boolean }>;
  dependencies: Record<string, string>;
};

/** The package a module specifier names ('@azure/cosmos/dist/x' → '@azure/cosmos'). */
function packageOf(specifier: string): string {
  const parts = specifier.split('/');
  return (specifier.startsWith('@') ? parts.slice(0, 2) : parts.slice(0, 1)).join('/');
}

function tsFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return tsFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

test("the driver peers are the stores' driver packages (typescript aside: the CLI's .ts loader), each optional", () => {
  const drivers = [...new Set(DESCRIPTORS.flatMap((d) => d.driverPackages))].sort();
  const peers = Object.keys(pkg.peerDependencies).filter((name) => name !== 'typescript');
  expect(peers.sort()).toEqual(drivers);
  expect(drivers.filter((name) => pkg.peerDependenciesMeta[name]?.optional !== true)).toEqual([]);
});

test.each(DESCRIPTORS.map((d) => [d.name, d.driverPackages] as const))(
  'src/providers/%s loads no package but its driver packages and lifespan-orm’s own dependencies',
  (store, drivers) => {
    const allowed = new Set<string>([...drivers, ...Object.keys(pkg.dependencies)]);
    const loaded = tsFiles(path.join(ROOT, 'src', 'providers', store)).flatMap((file) =>
      ts
        .preProcessFile(fs.readFileSync(file, 'utf8'), true, true)
        .importedFiles.map((i) => i.fileName)
        .filter((spec) => !spec.startsWith('.') && !spec.startsWith('node:'))
        .map((spec) => `${path.basename(file)} loads ${packageOf(spec)}`),
    );
    expect(loaded.filter((line) => !allowed.has(line.split(' loads ')[1] ?? ''))).toEqual([]);
  },
);

test("`lifespan init` installs only the stores' driver packages", () => {
  const drivers = new Set(DESCRIPTORS.flatMap((d) => d.driverPackages));
  const undeclared = Object.entries(STORE_TEMPLATES).flatMap(([store, template]) =>
    template.packages.filter((name) => !drivers.has(name)).map((name) => `${store}: ${name}`),
  );
  expect(undeclared).toEqual([]);
});
