// saxen ships no types; the part of its API the payout workbook scan uses (lib/server/payouts/workbook.ts).
declare module 'saxen' {
  type Decode = (text: string) => string;
  export class Parser {
    on(
      event: 'openTag',
      listener: (name: string, attributes: () => Record<string, string> | false, decode: Decode) => void,
    ): this;
    on(event: 'closeTag', listener: (name: string) => void): this;
    on(event: 'error', listener: (error: Error) => void): this;
    /** Parses a whole document; returns the parse error, if any (also given to the `error` listener). */
    parse(xml: string): Error | null;
  }
}
