// The message templates of SPEC §5. Every validation message in Data Lab is built here.

export const messages = {
  required: (field: string) => `${field} is required`,
  doesNotExist: (entity: string, id: string | number) => `${entity} with id ${id} does not exist`,
  alreadyExists: (entity: string, id: string | number) => `${entity} with id ${id} already exists`,
  /** The name-based equivalent of alreadyExists, for things people name. */
  alreadyExistsNamed: (entity: string, name: string) => `${entity} with name ${name} already exists`,
  noneFound: (what = 'Data') => `No ${what} found`,
  atLeastOne: (what: string) => `At least one ${what} is required`,
  unsupportedType: (type: string) => `Unsupported type ${type}`,
  allOrNone: (a: string, b: string) => `${a} and ${b} must be all present or all not present`,
  unsupportedDataAssetType: 'Unsupported Data Asset Type',
  invalidOption: 'Invalid option',
  noUidProvided: 'No UID provided',
  maxDepthReached: 'Max depth reached',
  noData: 'No data',
} as const;
