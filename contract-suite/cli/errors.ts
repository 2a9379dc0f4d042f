// The one way a contract run cannot start (bad usage, a target that is not this API, a file that cannot be
// written): one line on stderr and exit 2, never a stack.

/** A usage or target problem: one line, exit code 2. */
export class StartError extends Error {}
