/**
 * Text written straight into bytes, for the texts the database is sent by the hundred thousand
 * values: COPY's rows and PostgreSQL's array literals. Made the usual way, every number is first
 * a string of its own and every row or array a list of them joined: of a PostgreSQL import of a
 * million rows, the literals alone were a fifth of what it allocated and a second of its CPU. Here
 * an integer's digits go into the buffer as they are worked out, and nothing is made per value.
 */
export class TextBytes {
  #buffer: Buffer;
  #at = 0;

  constructor(capacity = 65_536) {
    this.#buffer = Buffer.allocUnsafe(Math.max(64, capacity));
  }

  /** Empties it for the next text, keeping its room. */
  reset(): void {
    this.#at = 0;
  }

  /** One byte: a character of code below 128. */
  byte(code: number): void {
    if (this.#at === this.#buffer.length) this.#grow(1);
    this.#buffer[this.#at++] = code;
  }

  /** Text all of whose characters are below 128 (a number as it prints, a fixed token, a date). */
  ascii(text: string): void {
    this.#room(text.length);
    if (text.length > SHORT) {
      this.#at += this.#buffer.write(text, this.#at, 'latin1');
      return;
    }
    // A short text goes in byte by byte: a call into Buffer's native write costs more than the
    // copy (a date and a separator of every lot of a seed's millions).
    const buffer = this.#buffer;
    let at = this.#at;
    for (let i = 0; i < text.length; i++) buffer[at++] = text.charCodeAt(i);
    this.#at = at;
  }

  /** Any text, as UTF-8. */
  utf8(text: string): void {
    // A UTF-16 code unit never takes more than three bytes in UTF-8.
    this.#room(text.length * 3);
    this.#at += this.#buffer.write(text, this.#at, 'utf8');
  }

  /** A number as String() prints it: integers digit by digit, anything else through String(). */
  number(value: number): void {
    if (!Number.isSafeInteger(value)) {
      this.ascii(String(value));
      return;
    }
    // -0 is not below 0 and prints as 0, as String(-0) does.
    if (value < 0) {
      this.byte(MINUS);
      value = -value;
    }
    let digits = 1;
    for (let power = 10; power <= value; power *= 10) digits++;
    this.#room(digits);
    const buffer = this.#buffer;
    let at = this.#at + digits;
    this.#at = at;
    // Digits above the last nine go out in floating point; the last nine (all of most values) in
    // 32-bit integers, several times faster.
    while (value > MAX_INT32) {
      buffer[--at] = ZERO + (value % 10);
      value = Math.floor(value / 10);
    }
    let small = value | 0;
    do {
      buffer[--at] = ZERO + (small % 10);
      small = (small / 10) | 0;
    } while (small > 0);
  }

  /** The bytes written so far: a view of the buffer, valid until it is next written to or reset. */
  bytes(): Buffer {
    return this.#buffer.subarray(0, this.#at);
  }

  /** The text written so far, for text written only by `byte`, `ascii` and `number`. */
  latin1(): string {
    return this.#buffer.toString('latin1', 0, this.#at);
  }

  #room(bytes: number): void {
    if (this.#at + bytes > this.#buffer.length) this.#grow(bytes);
  }

  #grow(bytes: number): void {
    const grown = Buffer.allocUnsafe(Math.max(this.#buffer.length * 2, this.#at + bytes));
    this.#buffer.copy(grown, 0, 0, this.#at);
    this.#buffer = grown;
  }
}

/** Up to this many characters ascii copies in JavaScript. */
const SHORT = 32;
const MAX_INT32 = 2 ** 31 - 1;
const MINUS = 45;
const ZERO = 48;
