// The wire types, named in the spec's own vocabulary. Every type here comes from
// generated/openapi.ts (written by openapi-typescript from openapi.yaml): if tsc
// passes, the data and the server match the spec.
import type { components } from '../generated/openapi';

type Schemas = components['schemas'];

export type ClientSimple = Schemas['ClientSimple'];
export type ClientExtended = Schemas['ClientExtended'];
export type ClientDetail = Schemas['ClientDetail'];
export type ClientSimplePage = Schemas['ClientSimplePage'];
export type ClientExtendedPage = Schemas['ClientExtendedPage'];
export type PersonalInfo = Schemas['PersonalInfo'];
export type ContactInfo = Schemas['ContactInfo'];
export type Address = Schemas['Address'];
export type Staff = NonNullable<Schemas['Staff']>;
export type Location = NonNullable<Schemas['Location']>;
export type Insurance = NonNullable<Schemas['Insurance']>;
export type Allergy = Schemas['Allergy'];
export type Medication = Schemas['Medication'];
export type ClientStatus = Schemas['ClientStatus'];
export type Gender = PersonalInfo['Gender'];
export type ErrorDto = Schemas['ErrorDto'];
export type ErrorCode = ErrorDto['Code'];
