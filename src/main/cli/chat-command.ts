// `folio chat`: the terminal chat (zcbot's REPL) over the same core as the app: in this process by
// default (owning the data folder like `folio serve`), or a running `folio serve` with --url.
import { parseArgs } from 'node:util';
import { ApprovalMode, TaskMode } from '../../shared/contract';
import { CliInputError } from './cli-messages';

export async function chatCommand(argv: string[], paths: () => { dataDir: string; resourcesDir: string }): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      url: { type: 'string' },
      token: { type: 'string' },
      resume: { type: 'string' },
      // zcbot's command line: the new task's mode and description.
      mode: { type: 'string' },
      desc: { type: 'string' },
      approvals: { type: 'string' },
      model: { type: 'string' },
      // What a person need not read: the core's English words under an error, a tool's own text.
      verbose: { type: 'boolean', default: false },
    },
    strict: true,
  });
  const mode = values.mode === undefined ? undefined : TaskMode.safeParse(values.mode);
  if (mode && !mode.success) throw new CliInputError('errors.badMode', { value: values.mode ?? '' });
  const approvalMode = values.approvals === undefined ? undefined : ApprovalMode.safeParse(values.approvals);
  if (approvalMode && !approvalMode.success) throw new CliInputError('errors.badApprovals', { value: values.approvals ?? '' });
  const description = values.desc?.trim();
  if (values.desc !== undefined && !description) throw new CliInputError('errors.descEmpty');
  if (values.resume !== undefined && (mode || description)) throw new CliInputError('errors.resumeWithNew');
  if (!process.stdin.isTTY) throw new CliInputError('errors.notInteractive');

  // Ink, React and the chat modules load only for this command.
  const [{ render }, { createElement }, backends, { ChatController }, { ChatApp }, i18n] = await Promise.all([
    import('ink'),
    import('react'),
    import('./chat/backend'),
    import('./chat/controller'),
    import('./chat/view'),
    import('./chat/i18n'),
  ]);
  let backend;
  if (values.url !== undefined) {
    const token = values.token ?? process.env.FOLIO_TOKEN;
    if (!token) throw new CliInputError('errors.urlNeedsToken');
    backend = backends.httpBackend({ url: values.url, token });
  } else {
    backend = await backends.inProcessBackend(paths());
  }

  const controller = new ChatController({ backend, initial: { approvalMode: approvalMode?.data, model: values.model, mode: mode?.data, description } });
  // A closed terminal (SIGHUP) ends the process through Ink's signal-exit hook without this clean-up;
  // that is safe: the lock of a dead process is taken over and its runs are marked interrupted.
  try {
    const settings = await backend.client.getSettings({});
    const language = i18n.resolveChatLanguage(settings.language, process.env);
    const t = await i18n.createTranslate(language);
    await controller.start(values.resume);
    const app = render(createElement(ChatApp, { controller, t, language, header: t('header', { where: backend.where }) }), { exitOnCtrlC: false });
    await app.waitUntilExit();
    process.stdout.write(`${t('bye')}\n`);
  } finally {
    // Cancels a running reply, closes the database and releases the data folder's lock.
    await controller.close();
  }
  return 0;
}
