import type { StoredParameter } from '@datalab/contract/parameters';

// The form reads an asset's parameter definitions as the contract types them (@datalab/contract/parameters: the
// schema the server validates with and the engine runs). The reply is decoded with that schema, so what reaches
// the form is a whole definition; there is no second reading of it here.

export type FormParameter = StoredParameter;

/** The definitions in the order the asset lists them. */
export function readParameters(stored: readonly StoredParameter[]): FormParameter[] {
  return [...stored].sort((a, b) => a.position - b.position);
}

export const parameterLabel = (parameter: FormParameter) => parameter.label ?? parameter.name;

export function parentsOf(parameter: FormParameter): string[] {
  return parameter.allowedValues?.kind === 'dataSource' ? parameter.allowedValues.dependsOn : [];
}
