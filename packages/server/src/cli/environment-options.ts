// Every option of a command settable by an environment variable named after it (`--tls-cert` reads EDFI_TLS_CERT),
// shown in --help; an option that names its own variable keeps it, and the command line wins over either. Options
// added to the command before the call, wherever they are declared, get one.
import { InvalidArgumentError, type Command, type Option } from 'commander';

const PREFIX = 'EDFI_';
/** Values that leave a flag off; any other value of its variable turns it on. */
const FLAG_OFF = new Set(['', '0', 'false', 'no', 'off']);

export function environmentVariableOf(option: Option): string {
  const name = (option.long ?? option.name()).replace(/^-+/, '');
  return PREFIX + name.replace(/-/g, '_').toUpperCase();
}

/** The option's value from its variable's text: a flag's on or off, else the text through the option's parser. */
function valueFrom(option: Option, text: string): unknown {
  if (!option.required && !option.optional) {
    if (FLAG_OFF.has(text.trim().toLowerCase())) return undefined;
    return option.negate ? false : (option.presetArg ?? true);
  }
  return option.parseArg === undefined ? text : option.parseArg(text, option.defaultValue as never);
}

export function withEnvironmentVariables(command: Command): Command {
  // Commander reads only the variables named before an option is added, so these are read here, before the action.
  const named = command.options.filter((option) => option.envVar === undefined);
  for (const option of named) option.env(environmentVariableOf(option));
  command.addHelpText(
    'after',
    "\nEvery option can also be set by the environment variable shown with it (command-line options win); a flag's " +
      "variable turns it on unless it is empty, '0', 'false', 'no' or 'off'.",
  );
  return command.hook('preAction', (self) => {
    for (const option of named) {
      const text = process.env[option.envVar!];
      const key = option.attributeName();
      if (text === undefined || self.getOptionValueSource(key) === 'cli') continue;
      try {
        const value = valueFrom(option, text);
        if (value !== undefined) self.setOptionValueWithSource(key, value, 'env');
      } catch (error) {
        if (!(error instanceof InvalidArgumentError)) throw error;
        self.error(`error: ${option.envVar}='${text}' is not a valid value of ${option.long}. ${error.message}`, {
          exitCode: 1,
          code: 'commander.invalidArgument',
        });
      }
    }
  });
}
