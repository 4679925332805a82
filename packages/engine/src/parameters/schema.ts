// The parameter definition schema is the contract's (@datalab/contract/parameters): the same schema drives the
// portal's form, the server's checks and the OpenAPI documents. Values come from validateParameters (values.ts).

export {
  allowedValuesSchema,
  fixedOptionSchema,
  parameterDefinitionSchema,
  parameterDefinitionsSchema,
  parameterTypes,
  type ParameterDefinition,
  type ParameterDefinitionInput,
  type ParameterType,
} from '@datalab/contract/parameters';
