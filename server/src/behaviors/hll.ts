import { createHash } from 'node:crypto';

/** 2^12 registers: 4 KiB per bucket once a bucket goes past the exact bound; standard error 1.04/√4096 ≈ 1.6 %. */
export const HLL_PRECISION = 12;
export const HLL_REGISTERS = 1 << HLL_PRECISION;
export const HLL_STANDARD_ERROR = 1.04 / Math.sqrt(HLL_REGISTERS);

/** 64 bits of SHA-1: the same in every process and every release, which stored registers depend on. */
function hash64(value: string): [number, number] {
  const digest = createHash('sha1').update(value).digest();
  return [digest.readUInt32BE(0), digest.readUInt32BE(4)];
}

/** HyperLogLog (Flajolet et al. 2007) with linear counting for small cardinalities. Registers merge by max. */
export class HyperLogLog {
  readonly registers: Uint8Array;

  constructor(registers?: Uint8Array) {
    this.registers = registers ? Uint8Array.from(registers) : new Uint8Array(HLL_REGISTERS);
    if (this.registers.length !== HLL_REGISTERS) throw new Error(`HyperLogLog needs ${HLL_REGISTERS} registers`);
  }

  add(value: string): void {
    const [hi, lo] = hash64(value);
    const index = hi >>> (32 - HLL_PRECISION);
    // The remaining 52 bits: 20 from hi, 32 from lo. Rank = position of the first 1 bit, counting from 1.
    const rest = hi & ((1 << (32 - HLL_PRECISION)) - 1);
    const rank = rest !== 0 ? Math.clz32(rest) - HLL_PRECISION + 1 : lo !== 0 ? 32 - HLL_PRECISION + Math.clz32(lo) + 1 : 53;
    if (rank > this.registers[index]!) this.registers[index] = rank;
  }

  merge(other: HyperLogLog): void {
    for (let i = 0; i < HLL_REGISTERS; i++) if (other.registers[i]! > this.registers[i]!) this.registers[i] = other.registers[i]!;
  }

  estimate(): number {
    const m = HLL_REGISTERS;
    let sum = 0;
    let zeros = 0;
    for (let i = 0; i < m; i++) {
      const r = this.registers[i]!;
      sum += 2 ** -r;
      if (r === 0) zeros++;
    }
    const alpha = 0.7213 / (1 + 1.079 / m);
    const raw = (alpha * m * m) / sum;
    if (raw <= 2.5 * m && zeros > 0) return Math.round(m * Math.log(m / zeros));
    return Math.round(raw);
  }

  toHex(): string {
    return Buffer.from(this.registers).toString('hex');
  }

  static fromHex(hex: string): HyperLogLog {
    return new HyperLogLog(Uint8Array.from(Buffer.from(hex, 'hex')));
  }
}
