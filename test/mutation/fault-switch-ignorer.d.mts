import type { Ignorer } from '@stryker-mutator/api/ignore';
export declare class FaultSwitchIgnorer implements Ignorer {
  shouldIgnore(path: Parameters<Ignorer['shouldIgnore']>[0]): string | undefined;
}
export declare const strykerPlugins: unknown[];
