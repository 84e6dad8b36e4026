/** The approver of a code (mock/oauth/approver.ts): the slice dimension `approver`, and whose token the fault issues instead. */
import { describe, expect, test } from 'vitest';
import { createWorld } from '../../mock/world.js';
import { approverRole, partnerOf } from '../../mock/oauth/approver.js';

describe('approver', () => {
  const world = createWorld();
  const [owner, guest] = world.users;

  test('the owner of a lock is an owner; a guest on one is a guest', () => {
    expect(approverRole(world, owner!.userId)).toBe('owner');
    expect(approverRole(world, guest!.userId)).toBe('guest');
  });

  test('the partner is another member of the same lock, never the approver', () => {
    expect(partnerOf(world, owner!.userId)).toBe(guest!.userId);
    expect(partnerOf(world, guest!.userId)).toBe(owner!.userId);
  });
});
