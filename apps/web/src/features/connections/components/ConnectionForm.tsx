import { Alert, Group, NumberInput, SimpleGrid, Switch, TextInput } from '@mantine/core';
import { sqlDrivers, type SqlConnection, type SqlDriver } from '@datalab/contract/api/sql-connections';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useTestConnection } from '../api/test-connection.ts';
import { useCreateConnection } from '../api/create-connection.ts';
import { useUpdateConnection, type ConnectionSettings } from '../api/update-connection.ts';
import { draftOf, newDraft, settingsOf, withKind, type ConnectionDraft } from './connection-draft.ts';
import { useSettingsDraft } from '../model/use-settings-draft.ts';
import { driverLabels } from './ConnectionTable.tsx';
import { TestResult } from './TestResult.tsx';
import { ConnectionFormFrame, savedBy, type SettingsFormProps } from './ConnectionFormFrame.tsx';
import { NameRow } from './NameRow.tsx';
import { KindSelect } from './KindSelect.tsx';
import { DescriptionField } from './DescriptionField.tsx';
import { SecretInput } from './SecretInput.tsx';

interface ConnectionSettingsFormProps extends SettingsFormProps<ConnectionSettings> {
  /** The stored connection's id and password (masked), when editing one; absent for a new connection. */
  stored?: { id: number; password: string | null };
  initial: ConnectionDraft;
  /** Only an administrator may allow an account that may do more than read (the server refuses anyone else). */
  isAdministrator: boolean;
}

/** A connection's settings with Test (on the settings as typed, saved or not) and Save. */
function ConnectionSettingsForm(props: ConnectionSettingsFormProps) {
  const { collectionUid, stored, onDirtyChange } = props;
  const test = useTestConnection(collectionUid, stored?.id);
  // A refused test (a host the server does not allow, its own metadata database) says why on the field, as a save does.
  const failures = { test: test.error, save: props.saveError };
  const { draft, set, change, errorOf } = useSettingsDraft<ConnectionDraft>(props.initial, failures, onDirtyChange);
  const setKind = (kind: SqlDriver) => change((current) => withKind(current, kind));
  const isFile = draft.kind === 'sqlite';
  const settings = () => settingsOf(draft, stored?.password ?? null);

  return (
    <ConnectionFormFrame
      label="Connection settings"
      settings={settings}
      form={props}
      test={test}
      result={test.data ? <TestResult result={test.data} /> : null}
    >
      <NameRow value={draft.name} error={errorOf('name')} onChange={(name) => set('name', name)}>
        <KindSelect kinds={sqlDrivers} labels={driverLabels} value={draft.kind} onChange={setKind} />
      </NameRow>
      <DescriptionField value={draft.description} onChange={(description) => set('description', description)} />
      {isFile ? null : (
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput
            label="Host"
            value={draft.host}
            error={errorOf('host')}
            onChange={(e) => set('host', e.currentTarget.value)}
          />
          <TextInput
            label="Port"
            inputMode="numeric"
            value={draft.port}
            error={errorOf('port')}
            onChange={(e) => set('port', e.currentTarget.value)}
          />
        </SimpleGrid>
      )}
      <TextInput
        label={isFile ? 'Database file (relative to the data folder)' : 'Database'}
        required
        value={draft.database}
        error={errorOf('database')}
        onChange={(e) => set('database', e.currentTarget.value)}
      />
      {isFile ? null : (
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput
            label="User"
            description="An account that may only read (SELECT): see Read-only database accounts in the operations guide."
            value={draft.username}
            error={errorOf('username')}
            autoComplete="off"
            onChange={(e) => set('username', e.currentTarget.value)}
          />
          <SecretInput
            label="Password"
            isStored={stored !== undefined}
            value={draft.password}
            error={errorOf('password')}
            onChange={(password) => set('password', password)}
          />
        </SimpleGrid>
      )}
      <Group grow align="flex-start">
        <NumberInput
          label="Connections in the pool, at most"
          min={1}
          max={100}
          value={draft.poolMax}
          onChange={(v) => set('poolMax', Number(v) || 1)}
        />
        <NumberInput
          label="Wait for a free connection (ms)"
          min={1}
          max={60_000}
          value={draft.acquireTimeoutMs}
          onChange={(v) => set('acquireTimeoutMs', Number(v) || 1)}
        />
      </Group>
      {isFile ? null : (
        <Switch
          label="Use TLS (SSL)"
          checked={draft.ssl}
          error={errorOf('ssl')}
          onChange={(e) => set('ssl', e.currentTarget.checked)}
        />
      )}
      {isFile ? null : (
        <PrivilegedAccount
          isAdministrator={props.isAdministrator}
          checked={draft.allowPrivilegedAccount}
          error={errorOf('allowPrivilegedAccount')}
          onChange={(checked) => set('allowPrivilegedAccount', checked)}
        />
      )}
    </ConnectionFormFrame>
  );
}

interface PrivilegedAccountProps {
  isAdministrator: boolean;
  checked: boolean;
  error: string | undefined;
  onChange: (checked: boolean) => void;
}

/**
 * The administrator's override for an account that may do more than read: a switch with its warning for
 * administrators; for anyone else only a note while it is on (a change of the account clears it).
 */
function PrivilegedAccount({ isAdministrator, checked, error, onChange }: PrivilegedAccountProps) {
  if (isAdministrator) {
    return (
      <Switch
        label="Allow an account that may do more than read"
        description={
          'Use only when no read-only account can be had. A superuser or an account with FILE can read the ' +
          "database server's files, and one with write grants is a mistake away from changing data. Runs stay " +
          'read-only and are rolled back; the change is audited.'
        }
        color="red"
        checked={checked}
        error={error}
        onChange={(e) => onChange(e.currentTarget.checked)}
      />
    );
  }
  if (!checked) return null;
  return (
    <Alert color="orange" icon={<IconAlertTriangle size={18} />} title="Account allowed by an administrator">
      This connection&apos;s account may do more than read. Changing the kind, host, port, database, user or password
      withdraws the allowance.
    </Alert>
  );
}

interface ConnectionFormProps {
  connection: SqlConnection;
  onSaved: (saved: SqlConnection) => void;
  onCancel: () => void;
  onDirtyChange?: (isDirty: boolean) => void;
  isAdministrator: boolean;
}

/** A stored connection: its password stays unless a new one is typed. */
export function ConnectionForm({ connection, onSaved, onCancel, onDirtyChange, isAdministrator }: ConnectionFormProps) {
  const update = useUpdateConnection(connection);
  return (
    <ConnectionSettingsForm
      collectionUid={connection.collectionUid}
      stored={{ id: connection.id, password: connection.password }}
      initial={draftOf(connection)}
      isAdministrator={isAdministrator}
      {...savedBy(update, onSaved)}
      submitLabel="Save"
      onCancel={onCancel}
      onDirtyChange={onDirtyChange}
    />
  );
}

interface NewConnectionFormProps {
  collectionUid: string;
  isAdministrator: boolean;
  onCreated: (created: SqlConnection) => void;
  onCancel: () => void;
  onDirtyChange?: (isDirty: boolean) => void;
}

/** A connection not created yet: tested on the settings as typed, then created. */
export function NewConnectionForm(props: NewConnectionFormProps) {
  const { collectionUid, onCreated, onCancel, onDirtyChange } = props;
  const create = useCreateConnection(collectionUid);
  return (
    <ConnectionSettingsForm
      collectionUid={collectionUid}
      initial={newDraft()}
      isAdministrator={props.isAdministrator}
      {...savedBy(create, onCreated)}
      submitLabel="Create connection"
      onCancel={onCancel}
      onDirtyChange={onDirtyChange}
    />
  );
}
