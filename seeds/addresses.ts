// Swedish-style street addresses, postal codes and phone numbers.
import type { SeededFakers } from './fakers';
import type { Address } from '../contract/wire-types';
import { COUNTRY, type City } from './reference-data';
import type { Draw } from './draw';
import { flat } from './text';

export class AddressMaker {
  private readonly streetNames: readonly string[];
  private readonly streetSuffixes: readonly string[];

  constructor(
    streets: SeededFakers['streets'],
    private readonly draw: Draw,
  ) {
    this.streetNames = streets.street_name;
    this.streetSuffixes = streets.street_suffix;
  }

  address(city: City): Address {
    const { draw } = this;
    const street = flat`${draw.pick(this.streetNames)}${draw.pick(this.streetSuffixes)} ${draw.between(1, 140)}`;
    const postal = flat`${draw.pick(city.postalPrefixes)} ${draw.digits(2)}`;
    return { Street: street, City: city.name, PostalCode: postal, Country: COUNTRY };
  }

  /** A mobile number: `+46 70 123 45 67`. */
  mobile(): string {
    const { draw } = this;
    return flat`+46 7${draw.pick(['0', '2', '3', '6', '9'])} ${draw.digits(3)} ${draw.digits(2)} ${draw.digits(2)}`;
  }

  /** A landline in the city's area: `+46 18 611 00 23`. */
  landline(city: City): string {
    const { draw } = this;
    return flat`+46 ${city.areaCode} ${draw.between(2, 9)}${draw.digits(2)} ${draw.digits(2)} ${draw.digits(2)}`;
  }
}
