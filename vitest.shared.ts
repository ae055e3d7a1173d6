// Shared vitest settings: Vite 8's transformer does not lower TC39 decorators yet, so files using them go through esbuild.

import { transform } from 'esbuild';
import type { Plugin } from 'vite';

const decoratorUse = /^\s*@[A-Za-z_$]/m;

export function standardDecorators(): Plugin {
  return {
    name: 'standard-decorators',
    enforce: 'pre',
    async transform(code, id) {
      if (!/\.[cm]?ts$/.test(id) || !decoratorUse.test(code)) return null;
      const result = await transform(code, {
        loader: 'ts',
        target: 'es2022',
        format: 'esm',
        sourcemap: true,
        sourcefile: id,
      });
      return { code: result.code, map: result.map };
    },
  };
}
