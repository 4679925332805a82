// The parameter definition schema is the contract's (@datalab/contract/parameters): the same schema drives the
// portal's form, the server's checks and the OpenAPI documents. Values come from validateParameters (values.ts).
// Definitions read back from the store are parsed with storedParameterDefinitionSchema, which does not compile the
// pattern (a stored pattern RE2 cannot run refuses values instead of making the asset unreadable).

export {
  allowedValuesSchema,
  fixedOptionSchema,
  parameterDefinitionSchema,
  parameterDefinitionsSchema,
  parameterTypes,
  storedParameterDefinitionSchema,
  type ParameterDefinition,
  type ParameterDefinitionInput,
  type ParameterType,
} from '@datalab/contract/parameters';
