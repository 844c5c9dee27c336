import net from 'node:net';

/**
 * Keeps a test on this machine: every TCP connection the process starts to a host that is not
 * loopback is recorded and fails at once (as a refused connection), before any DNS lookup or
 * packet. Tests that point a command at a remote `http:` site assert on `attempts` — empty
 * when the command refused before connecting — without sending traffic anywhere.
 */
export interface OfflineGuard {
  /** `host:port` of every blocked connection, in order. */
  readonly attempts: string[];
  restore(): void;
}

const LOOPBACK = /^(?:localhost|127(?:\.\d{1,3}){3}|::1|::ffff:127(?:\.\d{1,3}){3})$/i;

export function guardRemoteConnections(): OfflineGuard {
  const attempts: string[] = [];
  const original = net.Socket.prototype.connect;
  const patched = function (this: net.Socket, ...args: unknown[]): net.Socket {
    const target = targetOf(args);
    if (target !== undefined && !LOOPBACK.test(target.host.replace(/^\[|\]$/g, ''))) {
      attempts.push(`${target.host}:${target.port}`);
      const error = Object.assign(new Error(`test guard: no connection to ${target.host}`), {
        code: 'ECONNREFUSED',
      });
      process.nextTick(() => this.destroy(error));
      return this;
    }
    return (original as (...a: unknown[]) => net.Socket).apply(this, args);
  };
  net.Socket.prototype.connect = patched as typeof original;
  return {
    attempts,
    restore: () => {
      net.Socket.prototype.connect = original;
    },
  };
}

/** Host and port from any of `socket.connect`'s call forms; undefined for a local socket path. */
function targetOf(args: unknown[]): { host: string; port: string } | undefined {
  const first = Array.isArray(args[0]) ? (args[0] as unknown[])[0] : args[0];
  if (typeof first === 'number' || (typeof first === 'string' && /^\d+$/.test(first))) {
    const host = typeof args[1] === 'string' ? args[1] : 'localhost';
    return { host, port: String(first) };
  }
  if (first !== null && typeof first === 'object') {
    const options = first as { host?: unknown; port?: unknown; path?: unknown };
    if (typeof options.path === 'string') return undefined;
    return {
      host: typeof options.host === 'string' ? options.host : 'localhost',
      port: String(options.port ?? ''),
    };
  }
  return undefined;
}
