/** An operation the operator asked for that the store's leads do not allow, with what to tell them. */

/**
 * Thrown by an operation that does nothing because of what the leads are (no such lead, not
 * failed, not quarantined, erased meanwhile): its message is the line the operator reads, without
 * the command's name.
 */
export class OperationRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = "OperationRefused";
  }
}

export function refuse(message: string): never {
  throw new OperationRefused(message);
}
