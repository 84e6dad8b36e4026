/**
 * The inputs of the traceability matrix, read from the project: the vendored spec's
 * statements, the map, the service's requirements, the tests under suites/ and the
 * reference mock's fault catalog. Here, not in harness/catalog/, because the catalog
 * stays independent of any one kind of target and the faults are the mock's.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CATALOG } from '../catalog/index.js';
import { SERVICE_REQUIREMENTS } from '../catalog/service.js';
import { SPEC_MAP } from '../catalog/spec-map/index.js';
import { SPEC_PATH, specStatements } from '../catalog/spec-statements.js';
import type { TraceInputs } from '../catalog/traceability.js';
import { scanSuites } from '../run/selection.js';
import { FAULTS } from '../../mock/faults.js';
import { SLICE_BREAKS } from '../../mock/slice-faults.js';
import { RECEIVER_REQUIREMENTS } from '../catalog/receiver.js';
import { RECEIVER_SLICE_BREAKS } from '../../examples/app/receiver-slice-faults.js';
import { CLIENT_SLICE_BREAKS } from '../../examples/app/client-faults.js';
import { ROOT } from './common.js';

export async function traceInputs(root = ROOT): Promise<TraceInputs> {
  return {
    statements: specStatements(),
    map: SPEC_MAP,
    requirements: SERVICE_REQUIREMENTS,
    knownIds: new Set(CATALOG.map((r) => r.id)),
    tests: await scanSuites(root),
    faults: Object.entries(FAULTS).map(([name, f]) => ({ name, requirement: f.requirement, description: f.description })),
    specText: await readFile(SPEC_PATH, 'utf8'),
    controlText: await readFile(join(root, 'docs', 'control-protocol.md'), 'utf8'),
    sliceBreaks: Object.fromEntries(Object.entries(SLICE_BREAKS).map(([id, b]) => [id, b.dims])),
    receiver: { requirements: RECEIVER_REQUIREMENTS, sliceBreaks: Object.fromEntries(Object.entries(RECEIVER_SLICE_BREAKS).map(([id, b]) => [id, b.dims])) },
    clientSliceBreaks: Object.fromEntries(Object.entries(CLIENT_SLICE_BREAKS).map(([id, b]) => [id, b.dims])),
  };
}
