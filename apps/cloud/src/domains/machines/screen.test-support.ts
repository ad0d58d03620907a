/** Test factory for the screen block: a minimal valid PUT body (every optional field left out), overridable. */
export function screenBody(over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    panel: { diagonalInches: 32 },
    resolution: { width: 1080, height: 1920 },
    venueName: 'Penn Station Concourse',
    address: { line1: '7th Ave & 32nd St', city: 'New York', country: 'US' },
    venueCategoryId: 10602,
    ...over,
  };
}
