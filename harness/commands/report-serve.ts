/** `report:serve`: reports/ over HTTP on 127.0.0.1. */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { EXIT, WORK_ROOT, untilStopped } from './common.js';

export async function serveCommand(opts: { port: number }): Promise<number> {
  const { default: Fastify } = await import('fastify');
  const { default: fastifyStatic } = await import('@fastify/static');
  const reports = join(WORK_ROOT, 'reports');
  await mkdir(reports, { recursive: true });
  const app = Fastify({ logger: false });
  await app.register(fastifyStatic, { root: reports, index: ['index.html'], redirect: true, dotfiles: 'ignore' });
  app.get('/', (_req, reply) => reply.redirect('/latest/index.html'));
  const address = await app.listen({ host: '127.0.0.1', port: opts.port });
  process.stdout.write(`serving ${reports} at ${address}/ (latest run: ${address}/latest/index.html). Ctrl-C stops it.\n`);
  await untilStopped();
  await app.close();
  return EXIT.OK;
}

