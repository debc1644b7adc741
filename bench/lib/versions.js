'use strict';
/** Installed versions, for the labels and the run's parameters. */
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..', '..');

/** The version in <from>/node_modules/<pkg>/package.json (read directly: some packages do not export it). */
function versionOf(pkg, from = ROOT) {
  try {
    return JSON.parse(fs.readFileSync(path.join(from, 'node_modules', pkg, 'package.json'), 'utf8')).version;
  } catch {
    return 'not installed';
  }
}

function driverLabel(pkg, from) {
  return `${pkg} ${versionOf(pkg, from)}`;
}

module.exports = { versionOf, driverLabel };
