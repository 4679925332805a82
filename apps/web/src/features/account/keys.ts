export const accountKeys = {
  all: ['account'] as const,
  currentUser: () => [...accountKeys.all, 'current-user'] as const,
};
