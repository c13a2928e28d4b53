// OSC packets written out byte by byte (OSC 1.0 spec), for tests that must not share an encoder's
// mistakes with the decoder they check, and for the types node-osc cannot encode (d, h).

/** An OSC-string: the text, a NUL, padded to 4 bytes. */
export const str = (text) => {
  const bytes = Buffer.alloc((Buffer.byteLength(text) + 4) & ~3);
  bytes.write(text);
  return bytes;
};
export const int32 = (n) => {
  const b = Buffer.alloc(4);
  b.writeInt32BE(n);
  return b;
};
export const float64 = (n) => {
  const b = Buffer.alloc(8);
  b.writeDoubleBE(n);
  return b;
};
export const int64 = (n) => {
  const b = Buffer.alloc(8);
  b.writeBigInt64BE(BigInt(n));
  return b;
};
/** A message from its address, type tags (without the comma) and encoded arguments. */
export const message = (address, tags, ...args) => Buffer.concat([str(address), str(`,${tags}`), ...args]);
