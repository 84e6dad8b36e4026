/** Registration groups (spec: Registration groups (notificationTypes)). */
export const LOCK_GROUPS = ['operation', 'operation.type', 'configuration', 'battery', 'systemstatus', 'accessmgmt'] as const;
export const USER_GROUPS = ['lockmembership', 'lifecycle'] as const;

export type LockGroup = (typeof LOCK_GROUPS)[number];
export type UserGroup = (typeof USER_GROUPS)[number];
export type Group = LockGroup | UserGroup;
