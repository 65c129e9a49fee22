/** UPC-A: 11 payload digits and a check digit (GS1 modulo 10, weights 3,1,3,1… from the left). */

export function upcCheckDigit(payload: string): number {
  if (!/^\d{11}$/.test(payload)) throw new Error(`A UPC-A payload has 11 digits: ${payload}`);
  let sum = 0;
  for (let i = 0; i < 11; i++) sum += Number(payload[i]) * (i % 2 === 0 ? 3 : 1);
  return (10 - (sum % 10)) % 10;
}

export function makeUpc(payload: string): string {
  return payload + String(upcCheckDigit(payload));
}

export function isValidUpc(code: string): boolean {
  return /^\d{12}$/.test(code) && upcCheckDigit(code.slice(0, 11)) === Number(code[11]);
}

/**
 * The n-th UPC of a brand: number system 8, the brand's digit, then nine digits that spread
 * consecutive n over the range (multiplying by a number prime to 10 is a bijection mod 10^9),
 * so codes look random yet never collide.
 */
export function brandUpc(brandDigit: number, n: number): string {
  if (n < 0 || n >= 1_000_000_000) throw new Error(`UPC sequence out of range: ${n}`);
  const spread = Number((BigInt(n) * 387_420_489n + 104_729n) % 1_000_000_000n);
  return makeUpc(`8${brandDigit}${String(spread).padStart(9, '0')}`);
}
