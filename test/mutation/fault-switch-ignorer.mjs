/**
 * A Stryker ignorer plugin: leaves out the mock's fault-switch code, found by its
 * shape in the syntax tree, not chosen by hand.
 *
 * The mock breaks a rule on purpose only when a fault is switched on
 * (`ctx.faults.has('…')`, `this.faults.has(…)`, `faults.has(…)`: any call of a
 * method of something named `faults`). The conformance suite runs the mock with no
 * fault on, so a mutant inside code that only a fault reaches can never be killed,
 * and a mutant of the switch itself only turns a fault on (which the
 * self-verification matrix already proves caught). Such mutants are reported as
 * "Ignored" with the reason below, outside the score.
 *
 * An expression is *fault-on* when it is false (falsy) unless a fault is on:
 *   a fault-switch call; a const initialised with a fault-on expression;
 *   `A && B` with A or B fault-on; `A || B` with both fault-on; (A), A as T, A!.
 * It is *fault-off* when it is true unless a fault is on: `!A` with A fault-on;
 *   `A || B` with A or B fault-off; `A && B` with both fault-off.
 * Ignored (with everything inside):
 *   - every fault-on and fault-off expression (its value is fixed with no fault on);
 *   - the branch of an `if` or `?:` taken only when its test is fault-on
 *     (consequent) or fault-off (alternate);
 *   - a function declaration or a const of the module (not exported) whose every
 *     use lies in ignored code: a helper or a value only a fault uses.
 * A mutant of ignored code could still throw where the reference runs it (a const's
 * value is computed whatever the fault); such a mutant is left out all the same.
 * What it cannot see: code reached only through a method or another module used
 * only under a fault, and state that only faults fill (e.g. an empty denylist);
 * those survivors are triaged by hand (test/mutation/triage.json).
 */
import { PluginKind, declareClassPlugin } from '@stryker-mutator/api/plugin';

const REASON = 'fault switch: reached or changed only when a mock fault is on (test/mutation/fault-switch-ignorer.mjs)';

/** `faults.x(…)`, `<anything>.faults.x(…)`. */
function isFaultSwitchCall(node) {
  if (node?.type !== 'CallExpression' && node?.type !== 'OptionalCallExpression') return false;
  const callee = node.callee;
  if (callee?.type !== 'MemberExpression' && callee?.type !== 'OptionalMemberExpression') return false;
  const owner = callee.object;
  if (owner.type === 'Identifier') return owner.name === 'faults';
  if (owner.type === 'MemberExpression' || owner.type === 'OptionalMemberExpression') {
    return !owner.computed && owner.property.type === 'Identifier' && owner.property.name === 'faults';
  }
  return false;
}

/** The expression inside parentheses and TypeScript-only wrappers. */
function unwrap(node) {
  let n = node;
  while (n && ['ParenthesizedExpression', 'TSAsExpression', 'TSNonNullExpression', 'TSSatisfiesExpression', 'TSTypeAssertion'].includes(n.type)) n = n.expression;
  return n;
}

/** A const binding of `name` visible from `path`, initialised with a fault-on expression. */
function isFaultOnConst(path, name, seen) {
  const binding = path.scope?.getBinding(name);
  if (!binding || binding.kind !== 'const' || seen.has(binding)) return false;
  const decl = binding.path.node;
  if (decl?.type !== 'VariableDeclarator' || decl.id.type !== 'Identifier') return false;
  seen.add(binding);
  return isFaultOn(binding.path.get('init'), seen);
}

export function isFaultOn(path, seen = new Set()) {
  const node = unwrap(path?.node);
  if (!node) return false;
  if (isFaultSwitchCall(node)) return true;
  if (node.type === 'Identifier') return isFaultOnConst(path, node.name, seen);
  if (node.type === 'LogicalExpression') {
    const left = operand(path, 'left');
    const right = operand(path, 'right');
    if (node.operator === '&&') return isFaultOn(left, seen) || isFaultOn(right, seen);
    if (node.operator === '||') return isFaultOn(left, seen) && isFaultOn(right, seen);
  }
  return false;
}

export function isFaultOff(path, seen = new Set()) {
  const node = unwrap(path?.node);
  if (!node) return false;
  if (node.type === 'UnaryExpression' && node.operator === '!') return isFaultOn(operand(path, 'argument'), seen);
  if (node.type === 'LogicalExpression') {
    const left = operand(path, 'left');
    const right = operand(path, 'right');
    if (node.operator === '||') return isFaultOff(left, seen) || isFaultOff(right, seen);
    if (node.operator === '&&') return isFaultOff(left, seen) && isFaultOff(right, seen);
  }
  return false;
}

/** The path of a child of the (unwrapped) expression at `path`. */
function operand(path, key) {
  let p = path;
  while (p.node && p.node !== unwrap(p.node)) p = p.get('expression');
  return p.get(key);
}

/** Whether the node at `path` itself is fault-only (not looking at its ancestors). */
function isFaultOnlyNode(path, seen) {
  if (path.isExpression?.() && (isFaultOn(path) || isFaultOff(path))) return true;
  const parent = path.parentPath;
  if (parent && (parent.isIfStatement() || parent.isConditionalExpression())) {
    const test = parent.get('test');
    if (path.key === 'consequent' && isFaultOn(test)) return true;
    if (path.key === 'alternate' && isFaultOff(test)) return true;
  }
  // A helper, or a const's value, that only fault-only code uses.
  if (path.isFunctionDeclaration?.() && path.node.id) return onlyUsedUnderFaults(path, path.node.id.name, seen);
  if (path.isVariableDeclarator?.() && path.node.id.type === 'Identifier' && path.parentPath.node.kind === 'const') {
    return onlyUsedUnderFaults(path, path.node.id.name, seen);
  }
  return false;
}

/** Whether every use of the binding `name` declared at `path` lies in fault-only code (and there is one). */
function onlyUsedUnderFaults(path, name, seen) {
  const binding = path.scope.getBinding(name);
  if (!binding || binding.path.node !== path.node || seen.has(binding)) return false;
  if (path.parentPath?.isExportNamedDeclaration() || path.parentPath?.parentPath?.isExportNamedDeclaration()) return false;
  if (binding.referencePaths.length === 0) return false;
  seen.add(binding);
  try {
    return binding.referencePaths.every((ref) => isFaultOnly(ref, seen));
  } finally {
    seen.delete(binding);
  }
}

/** Whether the node at `path` or one of its ancestors is fault-only. */
export function isFaultOnly(path, seen = new Set()) {
  for (let p = path; p; p = p.parentPath) if (isFaultOnlyNode(p, seen)) return true;
  return false;
}

/** The reason to ignore the node at `path`, or undefined (its ancestors were asked first: an ignored node's subtree is ignored whole). */
export function faultSwitchReason(path) {
  return isFaultOnlyNode(path, new Set()) ? REASON : undefined;
}

export class FaultSwitchIgnorer {
  shouldIgnore(path) {
    return faultSwitchReason(path);
  }
}

export const strykerPlugins = [declareClassPlugin(PluginKind.Ignore, 'LockconfFaultSwitch', FaultSwitchIgnorer)];
