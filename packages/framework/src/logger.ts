// The minimal logger interface the framework writes to, and a console-backed default.

export interface Logger {
  info(message: string, data?: unknown): void;
  warn(message: string, data?: unknown): void;
  error(message: string, data?: unknown): void;
}

export const consoleLogger: Logger = {
  info: (message, data) => (data === undefined ? console.info(message) : console.info(message, data)),
  warn: (message, data) => (data === undefined ? console.warn(message) : console.warn(message, data)),
  error: (message, data) => (data === undefined ? console.error(message) : console.error(message, data)),
};
