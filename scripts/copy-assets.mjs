// Copies non-TypeScript assets (SQL migrations, prompt files, the inspector's page, the safety model) next to the compiled code.
import { cpSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const ASSET = /\.(sql|md|txt|html|css|js|svg|bin)$/;
const walk = (dir) =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : ASSET.test(name) ? [path] : [];
  });

for (const file of walk('src')) cpSync(file, join('dist', 'src', relative('src', file)));
