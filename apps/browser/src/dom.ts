// Small DOM helpers: look elements up once, failing loudly when the page and the script disagree.

export function element<T extends HTMLElement>(selector: string, type: new () => T): T {
  const found = document.querySelector(selector);
  if (!(found instanceof type)) throw new Error(`The page has no ${type.name} at ${selector}.`);
  return found;
}

/** A list item with the given text, optionally with a muted second line. */
export function listItem(text: string, detail?: string): HTMLLIElement {
  const li = document.createElement('li');
  li.append(text);
  if (detail) {
    const small = document.createElement('div');
    small.className = 'source';
    small.textContent = detail;
    li.append(small);
  }
  return li;
}

/** Shows a message in a status line, marked as an error when it is one. */
export function showStatus(target: HTMLElement, message: string, isError = false): void {
  target.textContent = message;
  target.classList.toggle('error', isError);
}

export function describeError(error: unknown): string {
  // The message, not the class name: minifiers rename classes in production bundles.
  return error instanceof Error ? error.message : String(error);
}
