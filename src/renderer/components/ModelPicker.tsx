// The task's model, chosen where the next message is written (as in Claude Desktop and Cherry
// Studio): the default model named, then every chat profile that can be used.
import { useTranslation } from 'react-i18next';
import type { Task } from '../../shared/contract';
import { useApp } from '../state/app-store';
import { DefaultModelOption, ModelOptions } from './ModelOptions';
import { TaskSelect } from './TaskSelect';
import { plainT } from '../i18n/plain';

export function ModelPicker({ task }: { task: Task }) {
  const { t } = useTranslation();
  const profiles = useApp((s) => s.profiles);
  const defaultModel = useApp((s) => s.settings?.default_model ?? null);
  const chatProfiles = profiles.filter((p) => p.role === 'chat');
  return (
    <TaskSelect
      taskId={task.id}
      className="composer-model"
      label={t('chat.model')}
      value={task.model ?? ''}
      patch={(value) => ({ model: value === '' ? null : value })}
      title={(shown) => (shown ? plainT('chat.modelTitle', { model: shown }) : plainT('chat.model'))}
      testId="model-picker"
    >
      <DefaultModelOption defaultModel={defaultModel} profiles={profiles} />
      <ModelOptions profiles={chatProfiles} requireKey current={task.model} />
    </TaskSelect>
  );
}
