// Believable, entirely fictional reference lists. Cities are real Swedish
// places with their postal-code prefixes so addresses look right; people,
// clinics and insurers are invented.

export interface City {
  name: string;
  /** First three digits of the city's postal codes (`NNN NN`). */
  postalPrefixes: readonly number[];
  /** Landline area code, without the leading 0. */
  areaCode: string;
}

export const COUNTRY = 'Sweden';

export const CITIES: readonly City[] = [
  { name: 'Stockholm', postalPrefixes: [111, 113, 114, 116, 118, 120, 124], areaCode: '8' },
  { name: 'Göteborg', postalPrefixes: [411, 413, 414, 416, 417], areaCode: '31' },
  { name: 'Malmö', postalPrefixes: [211, 212, 214, 216, 217], areaCode: '40' },
  { name: 'Uppsala', postalPrefixes: [751, 752, 753, 754, 756], areaCode: '18' },
  { name: 'Västerås', postalPrefixes: [721, 722, 723, 724], areaCode: '21' },
  { name: 'Örebro', postalPrefixes: [701, 702, 703, 704], areaCode: '19' },
  { name: 'Linköping', postalPrefixes: [581, 582, 583, 584], areaCode: '13' },
  { name: 'Helsingborg', postalPrefixes: [252, 253, 254, 256], areaCode: '42' },
  { name: 'Jönköping', postalPrefixes: [551, 553, 554, 556], areaCode: '36' },
  { name: 'Norrköping', postalPrefixes: [602, 603, 604, 605], areaCode: '11' },
  { name: 'Lund', postalPrefixes: [222, 223, 224, 226], areaCode: '46' },
  { name: 'Umeå', postalPrefixes: [903, 904, 906, 907], areaCode: '90' },
  { name: 'Gävle', postalPrefixes: [802, 803, 804, 805], areaCode: '26' },
  { name: 'Borås', postalPrefixes: [503, 504, 506, 507], areaCode: '33' },
  { name: 'Södertälje', postalPrefixes: [151, 152], areaCode: '8' },
  { name: 'Eskilstuna', postalPrefixes: [632, 633, 635], areaCode: '16' },
  { name: 'Halmstad', postalPrefixes: [302, 303, 305], areaCode: '35' },
  { name: 'Växjö', postalPrefixes: [352, 353, 355], areaCode: '470' },
  { name: 'Karlstad', postalPrefixes: [652, 653, 654, 656], areaCode: '54' },
  { name: 'Sundsvall', postalPrefixes: [852, 853, 854, 856], areaCode: '60' },
  { name: 'Luleå', postalPrefixes: [972, 973, 974, 975], areaCode: '920' },
  { name: 'Östersund', postalPrefixes: [831, 832], areaCode: '63' },
];

export const CLINIC_KINDS: readonly string[] = [
  'Health Centre',
  'Family Clinic',
  'Medical Centre',
  'Care Centre',
  'Polyclinic',
  'Primary Care Clinic',
];

export const SPECIALIZATIONS: readonly string[] = [
  'General Practice',
  'General Practice',
  'General Practice',
  'Internal Medicine',
  'Pediatrics',
  'Cardiology',
  'Dermatology',
  'Endocrinology',
  'Gastroenterology',
  'Geriatrics',
  'Gynecology',
  'Neurology',
  'Oncology',
  'Ophthalmology',
  'Orthopedics',
  'Psychiatry',
  'Pulmonology',
  'Rheumatology',
  'Urology',
];

/** Fictional insurers; the pool takes eight of them in a seed-dependent order. */
export const INSURERS: readonly { name: string; code: string }[] = [
  { name: 'Nordic Health Mutual', code: 'NHM' },
  { name: 'Trygg Care Insurance', code: 'TCI' },
  { name: 'Fjällhälsa Försäkring', code: 'FHF' },
  { name: 'Baltic Life & Health', code: 'BLH' },
  { name: 'Solvik Sjukförsäkring', code: 'SSF' },
  { name: 'Aurora Health Insurance', code: 'AHI' },
  { name: 'Kustvård Mutual', code: 'KVM' },
  { name: 'Lindhaga Assurance', code: 'LHA' },
  { name: 'Polar Care Partners', code: 'PCP' },
  { name: 'Vårdtrygg', code: 'VTG' },
];

export const ALLERGENS: readonly string[] = [
  'Penicillin',
  'Amoxicillin',
  'Sulfonamides',
  'Aspirin',
  'Ibuprofen',
  'Codeine',
  'Latex',
  'Peanuts',
  'Tree nuts',
  'Shellfish',
  'Fish',
  'Eggs',
  "Cow's milk",
  'Soy',
  'Wheat',
  'Birch pollen',
  'Grass pollen',
  'Dust mites',
  'Cat dander',
  'Bee venom',
  'Wasp venom',
  'Nickel',
];

export const SEVERITIES = ['Mild', 'Moderate', 'Severe'] as const;

export const MEDICATIONS: readonly { name: string; dosages: readonly string[]; frequencies: readonly string[] }[] = [
  { name: 'Metformin', dosages: ['500 mg', '850 mg', '1000 mg'], frequencies: ['Once daily', 'Twice daily'] },
  { name: 'Levothyroxine', dosages: ['25 mcg', '50 mcg', '75 mcg', '100 mcg'], frequencies: ['Once daily'] },
  { name: 'Atorvastatin', dosages: ['10 mg', '20 mg', '40 mg'], frequencies: ['Once daily at bedtime'] },
  { name: 'Simvastatin', dosages: ['20 mg', '40 mg'], frequencies: ['Once daily at bedtime'] },
  { name: 'Lisinopril', dosages: ['5 mg', '10 mg', '20 mg'], frequencies: ['Once daily'] },
  { name: 'Amlodipine', dosages: ['5 mg', '10 mg'], frequencies: ['Once daily'] },
  { name: 'Metoprolol', dosages: ['25 mg', '50 mg', '100 mg'], frequencies: ['Once daily', 'Twice daily'] },
  { name: 'Omeprazole', dosages: ['20 mg', '40 mg'], frequencies: ['Once daily before breakfast'] },
  { name: 'Sertraline', dosages: ['50 mg', '100 mg'], frequencies: ['Once daily'] },
  { name: 'Escitalopram', dosages: ['5 mg', '10 mg', '20 mg'], frequencies: ['Once daily'] },
  { name: 'Salbutamol inhaler', dosages: ['100 mcg/dose'], frequencies: ['As needed', 'Up to 4 times daily'] },
  { name: 'Budesonide inhaler', dosages: ['200 mcg/dose', '400 mcg/dose'], frequencies: ['Twice daily'] },
  { name: 'Paracetamol', dosages: ['500 mg', '1 g'], frequencies: ['As needed', 'Every 6 hours as needed'] },
  { name: 'Ibuprofen', dosages: ['200 mg', '400 mg'], frequencies: ['As needed', 'Three times daily with food'] },
  { name: 'Warfarin', dosages: ['2.5 mg', '5 mg'], frequencies: ['Once daily in the evening'] },
  { name: 'Apixaban', dosages: ['2.5 mg', '5 mg'], frequencies: ['Twice daily'] },
  { name: 'Furosemide', dosages: ['20 mg', '40 mg'], frequencies: ['Once daily in the morning'] },
  { name: 'Insulin glargine', dosages: ['10 units', '20 units', '30 units'], frequencies: ['Once daily at bedtime'] },
  { name: 'Cetirizine', dosages: ['10 mg'], frequencies: ['Once daily', 'As needed'] },
  { name: 'Vitamin D3', dosages: ['800 IU', '1000 IU', '2000 IU'], frequencies: ['Once daily'] },
  { name: 'Folic acid', dosages: ['400 mcg', '5 mg'], frequencies: ['Once daily'] },
  { name: 'Prednisolone', dosages: ['5 mg', '10 mg'], frequencies: ['Once daily in the morning'] },
  { name: 'Methotrexate', dosages: ['7.5 mg', '10 mg', '15 mg'], frequencies: ['Once weekly'] },
  { name: 'Losartan', dosages: ['50 mg', '100 mg'], frequencies: ['Once daily'] },
];

/** Synthetic e-mail domains: RFC 2606 reserved names, so no address can reach a real person. */
export const EMAIL_DOMAINS: readonly string[] = ['example.com', 'example.org', 'example.net'];
export const STAFF_EMAIL_DOMAIN = 'care.example.org';
