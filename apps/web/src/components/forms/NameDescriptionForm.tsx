import { useState, type FormEvent } from 'react';
import { Button, Group, Stack, TextInput, Textarea } from '@mantine/core';
import type { z } from 'zod';
import { isApiError } from '../../lib/api-error.ts';
import { fieldLimits } from '../../lib/field-limits.ts';
import { validateNameDescription, type NameDescription } from './name-description.ts';
import { useUnsavedChangesGuard } from './use-unsaved-changes-guard.tsx';

export interface NameDescriptionFormProps {
  /** The contract's body schema: its rules are the form's rules. */
  schema: z.ZodType;
  initialValues?: NameDescription;
  submitLabel: string;
  /** Rejects with the ApiError of a refused call; its errors map (a taken name) goes on the fields. */
  onSubmit: (values: NameDescription) => Promise<unknown>;
  onCancel?: () => void;
  readOnly?: boolean;
  namePlaceholder?: string;
  descriptionPlaceholder?: string;
  /** Editing: the submit button waits for a change. */
  requireChange?: boolean;
}

const empty: NameDescription = { name: '', description: '' };

/** Name and description, checked as you type, with the server's word on the name (409). */
export function NameDescriptionForm({
  schema,
  initialValues = empty,
  submitLabel,
  onSubmit,
  onCancel,
  readOnly = false,
  namePlaceholder,
  descriptionPlaceholder,
  requireChange = false,
}: NameDescriptionFormProps) {
  const [values, setValues] = useState(initialValues);
  const [touched, setTouched] = useState({ name: false, description: false });
  const [serverError, setServerError] = useState<{ name: string; message: string } | null>(null);
  const [isSubmitting, setSubmitting] = useState(false);

  const errors = validateNameDescription(schema, values);
  // The inputs take no more than the schema allows (the server's own rule).
  const limits = fieldLimits(schema);
  const nameError =
    (touched.name ? errors.name : undefined) ?? (serverError?.name === values.name ? serverError.message : undefined);
  const isDirty = values.name !== initialValues.name || values.description !== initialValues.description;
  const guard = useUnsavedChangesGuard(isDirty && !readOnly);

  const change = (field: keyof NameDescription, value: string) => {
    setValues((current) => ({ ...current, [field]: value }));
    setTouched((current) => ({ ...current, [field]: true }));
  };

  const handleSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setTouched({ name: true, description: true });
    if (Object.keys(errors).length > 0 || readOnly) return;
    setSubmitting(true);
    // A save may move on to another page; one that stays (refused, or an edit) guards changes again.
    guard.allowLeaving(true);
    try {
      await onSubmit({ name: values.name.trim(), description: values.description.trim() });
    } catch (error) {
      const message = isApiError(error) ? (error.errors['name']?.[0] ?? null) : null;
      if (message) setServerError({ name: values.name, message });
    } finally {
      guard.allowLeaving(false);
      setSubmitting(false);
    }
  };

  return (
    <form onSubmit={(event) => void handleSubmit(event)} noValidate>
      <Stack gap="md" maw={640}>
        <TextInput
          label="Name"
          required
          placeholder={namePlaceholder}
          value={values.name}
          onChange={(event) => change('name', event.currentTarget.value)}
          onBlur={() => setTouched((current) => ({ ...current, name: true }))}
          error={nameError}
          maxLength={limits['name']?.maxLength}
          readOnly={readOnly}
        />
        <Textarea
          label="Description"
          placeholder={descriptionPlaceholder}
          value={values.description}
          onChange={(event) => change('description', event.currentTarget.value)}
          error={touched.description ? errors.description : undefined}
          maxLength={limits['description']?.maxLength}
          readOnly={readOnly}
          autosize
          minRows={3}
          maxRows={8}
        />
        {readOnly ? null : (
          <Group gap="sm">
            <Button type="submit" loading={isSubmitting} disabled={requireChange && !isDirty}>
              {submitLabel}
            </Button>
            {onCancel ? (
              <Button
                variant="default"
                onClick={() => {
                  guard.allowLeaving(true);
                  onCancel();
                }}
                disabled={isSubmitting}
              >
                Cancel
              </Button>
            ) : null}
          </Group>
        )}
      </Stack>
      {guard.prompt}
    </form>
  );
}
