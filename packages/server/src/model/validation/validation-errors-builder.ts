// Accumulates validation messages by JSON path in report order, ignoring repeats of the same message at a path.
import type { ValidationErrors } from './validation-result.js';

export class ValidationErrorsBuilder {
  readonly #errors: ValidationErrors = {};
  #isEmpty = true;

  get isEmpty(): boolean {
    return this.#isEmpty;
  }

  add(path: string, message: string): void {
    const list = (this.#errors[path] ??= []);
    if (!list.includes(message)) list.push(message);
    this.#isEmpty = false;
  }

  build(): ValidationErrors {
    return this.#errors;
  }
}
