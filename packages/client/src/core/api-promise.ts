/** What `withResponse()` resolves to: the method's result, the HTTP response and its request id. */
export interface WithResponse<T> {
  data: T;
  /** The successful response (its body already read, except for `qna.document()`). */
  response: Response;
  /** The request id the service sent (`x-request-id` and kin), if any. */
  requestId: string | undefined;
}

/**
 * What every method returns: a Promise of its result that also offers `withResponse()`, for the
 * status, headers and request id of the successful response (as openai-node and
 * anthropic-sdk-typescript do).
 */
export class APIPromise<T> extends Promise<T> {
  readonly #result: Promise<WithResponse<T>>;
  #data: Promise<T> | undefined;

  /** @internal Made by the client's methods. */
  constructor(result: Promise<WithResponse<T>>) {
    // The base promise is never observed: `then`, `catch` and `finally` read `result`.
    super((resolve) => resolve(undefined as T));
    this.#result = result;
  }

  // Promises chained from this one are plain Promises.
  static override get [Symbol.species](): PromiseConstructor {
    return Promise;
  }

  /** The result with the response it came from: `{ data, response, requestId }`. */
  withResponse(): Promise<WithResponse<T>> {
    return this.#result;
  }

  // biome-ignore lint/suspicious/noThenProperty: a Promise subclass is thenable by design.
  override then<A = T, B = never>(
    onFulfilled?: ((value: T) => A | PromiseLike<A>) | null,
    onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ): Promise<A | B> {
    return this.#value().then(onFulfilled, onRejected);
  }

  override catch<B = never>(onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null): Promise<T | B> {
    return this.#value().catch(onRejected);
  }

  override finally(onFinally?: (() => void) | null): Promise<T> {
    return this.#value().finally(onFinally);
  }

  #value(): Promise<T> {
    this.#data ??= this.#result.then((result) => result.data);
    return this.#data;
  }
}

/** Runs `start` as an APIPromise: anything it throws before it returns rejects the promise instead. */
export function apiPromise<T>(start: () => Promise<WithResponse<T>>): APIPromise<T> {
  let result: Promise<WithResponse<T>>;
  try {
    result = start();
  } catch (error) {
    result = Promise.reject(error);
  }
  return new APIPromise(result);
}
