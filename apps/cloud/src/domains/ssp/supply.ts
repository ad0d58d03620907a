// Stand-in until the ssp branch lands (replaced by the real module on merge).
export interface SupplyRequest {
  machineNo: string;
  maxFills: number;
  slotSeconds: number;
  screen: { width: number; height: number; lat: number | null; lng: number | null; venueCategoryId: string | null } | null;
  now: number;
}
export interface SupplyFill {
  leaseId: string;
  assetUrl: string;
  mediaType: string;
  popUrl: string;
  netCpmMillis: number;
  expiresAt: number;
  head: string;
}
export interface SupplyAdapter {
  readonly name: string;
  fill(req: SupplyRequest): Promise<SupplyFill[]>;
  firePop(fill: { leaseId: string; popUrl: string }): Promise<void>;
}
