// The transformation and rule schemas are the contract's (@datalab/contract/transformations): the portal's editor,
// the server's checks and /api/docs use the same ones. Column names are checked against the actual columns when
// the list is compiled (apply.ts).

export {
  castTargets,
  filterOperators,
  ruleSchema,
  transformationSchema,
  transformationsSchema,
  type FilterOperator,
  type Rule,
  type RuleInput,
  type Transformation,
  type TransformationInput,
} from '@datalab/contract/transformations';
