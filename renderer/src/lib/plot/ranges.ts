/** y ranges of the live plots: readable without a jump at every new extreme. */

/** From zero up to a little above the largest value, at least `floor` (a flat line sits low). */
export function fromZero(floor: number): (min: number, max: number) => [number, number] {
  return (_min, max) => [0, Math.max(floor, Number.isFinite(max) ? max * 1.15 : floor)];
}

/** Symmetric around zero, at least ±`floor`: a pose line at 0 stays centred. */
export function aroundZero(floor: number): (min: number, max: number) => [number, number] {
  return (min, max) => {
    const reach = Math.max(floor, Number.isFinite(min) ? Math.abs(min) : 0, Number.isFinite(max) ? Math.abs(max) : 0);
    return [-reach * 1.1, reach * 1.1];
  };
}
