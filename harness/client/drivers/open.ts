/**
 * A new driver session for a probe (driver.ts): from the run's driver factory
 * when it names one (conformance --client --browser: Chromium), else the plain
 * HTTP driver. Each session has its own cookies.
 */
import type { Driver, DriverTarget } from './driver.js';
import { HttpDriver } from './http.js';

export async function openDriver(target: DriverTarget): Promise<Driver> {
  return target.drivers ? target.drivers.open(target) : new HttpDriver(target);
}

/** Whether the probes can make the application refresh: a refreshUrl, or (with Chromium) the profile's refresh button. */
export function canRefresh(target: DriverTarget): boolean {
  return Boolean(target.refreshUrl) || (target.drivers?.kind === 'chromium' && Boolean(target.browser?.refresh));
}
