/** Door index colour bands (spec part 1 §2): ≤30 red, ≤50 orange, ≤70 grey, ≤90 green, above blue. */
type DoorBand = 'red' | 'orange' | 'gray' | 'green' | 'blue';

export function doorIndexBand(doorIndex: number | null | undefined): DoorBand | null {
  if (doorIndex === null || doorIndex === undefined || !Number.isFinite(doorIndex)) return null;
  if (doorIndex <= 30) return 'red';
  if (doorIndex <= 50) return 'orange';
  if (doorIndex <= 70) return 'gray';
  if (doorIndex <= 90) return 'green';
  return 'blue';
}
