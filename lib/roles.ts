export const ROLES = ['admin', 'finance', 'support', 'viewer'] as const;
export type Role = (typeof ROLES)[number];
