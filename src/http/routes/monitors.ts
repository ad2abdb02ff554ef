/** Monitor routes: thin mapping of `/v2/monitor...` onto the monitor service. */
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import {
  checkParams,
  checkQuery,
  createMonitorSchema,
  listQuery,
  monitorParams,
  updateMonitorSchema,
  type CreateMonitor,
  type UpdateMonitor,
} from '../../monitor/schemas.js';
import type { MonitorService } from '../../monitor/service.js';
import { principalOf } from '../auth.js';
import { baseUrlOf } from '../base-url.js';

export interface MonitorRouteDeps {
  monitors: MonitorService;
  publicUrl: string | undefined;
}

export async function monitorRoutes(app: FastifyInstance, deps: MonitorRouteDeps): Promise<void> {
  const service = deps.monitors;
  const write = { scope: 'monitor', bucket: 'crawl' } as const;
  const read = { scope: 'monitor', bucket: 'status' } as const;
  const tags = ['monitor'];

  app.post('/v2/monitor', { schema: { body: createMonitorSchema, tags }, config: write }, async (req) => ({
    success: true,
    data: await service.create(principalOf(req).teamId, req.body as CreateMonitor),
  }));

  app.get('/v2/monitor', { schema: { querystring: listQuery, tags }, config: read }, async (req) => {
    const q = req.query as z.output<typeof listQuery>;
    return { success: true, data: await service.list(principalOf(req).teamId, q.limit, q.offset) };
  });

  app.get('/v2/monitor/:monitorId', { schema: { params: monitorParams, tags }, config: read }, async (req) => {
    const { monitorId } = req.params as z.output<typeof monitorParams>;
    return { success: true, data: await service.get(principalOf(req).teamId, monitorId) };
  });

  app.patch('/v2/monitor/:monitorId', { schema: { params: monitorParams, body: updateMonitorSchema, tags }, config: write }, async (req) => {
    const { monitorId } = req.params as z.output<typeof monitorParams>;
    return { success: true, data: await service.update(principalOf(req).teamId, monitorId, req.body as UpdateMonitor) };
  });

  app.delete('/v2/monitor/:monitorId', { schema: { params: monitorParams, tags }, config: write }, async (req) => {
    const { monitorId } = req.params as z.output<typeof monitorParams>;
    await service.remove(principalOf(req).teamId, monitorId);
    return { success: true };
  });

  app.post('/v2/monitor/:monitorId/run', { schema: { params: monitorParams, tags }, config: write }, async (req) => {
    const { monitorId } = req.params as z.output<typeof monitorParams>;
    return { success: true, data: await service.run(principalOf(req).teamId, monitorId) };
  });

  app.get('/v2/monitor/:monitorId/checks', { schema: { params: monitorParams, querystring: listQuery, tags }, config: read }, async (req) => {
    const { monitorId } = req.params as z.output<typeof monitorParams>;
    const q = req.query as z.output<typeof listQuery>;
    return { success: true, data: await service.checks(principalOf(req).teamId, monitorId, q.limit, q.offset) };
  });

  app.get('/v2/monitor/:monitorId/checks/:checkId', { schema: { params: checkParams, querystring: checkQuery, tags }, config: read }, async (req) => {
    const { monitorId, checkId } = req.params as z.output<typeof checkParams>;
    const q = req.query as z.output<typeof checkQuery>;
    const base = baseUrlOf(deps.publicUrl, req);
    const selfUrl = (skip: number) =>
      `${base}/v2/monitor/${monitorId}/checks/${checkId}?skip=${skip}&limit=${q.limit}${q.status ? `&status=${q.status}` : ''}`;
    const detail = await service.check(principalOf(req).teamId, monitorId, checkId, { skip: q.skip, limit: q.limit, ...(q.status ? { status: q.status } : {}) }, selfUrl);
    return { success: true, data: detail, next: detail.next };
  });
}
