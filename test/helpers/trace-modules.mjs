/**
 * `node --import ./trace-modules.mjs main.js ...`: appends the URL of every module the ES
 * loader resolves to the file named by CMS_MIRROR_TRACE_MODULES, one a line, so a test or a
 * benchmark can tell which modules a command loaded (CommonJS `require`s inside packages are not
 * seen there). CMS_MIRROR_TRACE_REQUIRES names a second file that gets the request of every
 * CommonJS `require` (Node's own modules too). CMS_MIRROR_TRACE_BUILTINS names a third that gets,
 * when the process exits, the name of every Node built-in module it loaded (`http2`,
 * `internal/http2/core`, ...), however it was loaded. Plain JavaScript: it runs in front of the
 * compiled CLI, without tsx.
 */
import { appendFileSync, writeFileSync } from 'node:fs';
import Module, { register } from 'node:module';
import process from 'node:process';

const log = process.env['CMS_MIRROR_TRACE_MODULES'];
if (log) {
  const hooks = `
    import { appendFileSync } from 'node:fs';
    export async function resolve(specifier, context, next) {
      const result = await next(specifier, context);
      appendFileSync(${JSON.stringify(log)}, result.url + '\\n');
      return result;
    }`;
  register(`data:text/javascript,${encodeURIComponent(hooks)}`);
}

const requires = process.env['CMS_MIRROR_TRACE_REQUIRES'];
if (requires) {
  const load = Module._load;
  Module._load = function (request, ...rest) {
    appendFileSync(requires, `${request}\n`);
    return load.call(this, request, ...rest);
  };
}

const builtins = process.env['CMS_MIRROR_TRACE_BUILTINS'];
if (builtins) {
  process.on('exit', () => {
    const loaded = process.moduleLoadList.filter((entry) => entry.startsWith('NativeModule '));
    writeFileSync(builtins, loaded.map((entry) => entry.slice('NativeModule '.length)).join('\n'));
  });
}
