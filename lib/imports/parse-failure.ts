/** Why a file cannot be read, with the line where it broke. */
export class ParseFailure extends Error {
  readonly line: number;
  constructor(line: number, message: string) {
    super(message);
    this.line = line;
  }
}
