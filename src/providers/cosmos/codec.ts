import { checkValue } from '../../core/values';
import { LifespanError } from '../../errors';
import { showValue } from '../../model/duration';
import { fieldOf, type EntityModel, type FieldModel } from '../../model/types';
import { unknownMember } from '../../runtime/arguments';
import type { EntityLayout } from './compile';
import { FORBIDDEN_ID_CHARACTERS, MAX_ID_LENGTH, STORE, TYPE_PROPERTY } from './semantics';

/** A JSON scalar Cosmos accepts as a partition key value. */
export type PartitionValue = string | number;

/** Where one item lives: its id and partition key value. */
export interface ItemAddress {
  readonly id: string;
  readonly partition: PartitionValue;
}

/** The item body lifespan writes (before any ttl property). */
export type ItemBody = { id: string } & Record<string, unknown>;

/**
 * Maps entity values to Cosmos items and back. JSON has no Date, bigint or bytes: dates are stored
 * as ISO 8601 strings (which sort in time order), bigints as decimal strings, binary as base64.
 */
export class ItemCodec {
  constructor(
    readonly entity: EntityModel,
    readonly layout: EntityLayout,
  ) {}

  /** Stored properties an update of an existing item keeps: @CreatedAt records when the item was first written. */
  get preservedOnUpdate(): readonly string[] {
    const member = this.entity.createdAt;
    return member === null ? [] : [this.storedName(member)];
  }

  /** The address of a key given as member → value. */
  address(key: Record<string, unknown>): ItemAddress {
    const id = this.idOf(key);
    if (this.layout.partitionMember === null) return { id, partition: id };
    const member = this.layout.partitionMember;
    return { id, partition: this.keyPart(member, key[member]) as PartitionValue };
  }

  /**
   * The item for entity values (member → value); `ttl` is added by the writer. Every member is
   * written: a missing (undefined) nullable member is stored as null, a missing required one is an error.
   */
  encode(values: Record<string, unknown>): ItemBody {
    const body: ItemBody = { id: this.idOf(values) };
    for (const field of this.entity.fields) {
      if (field.storedName === 'id') continue;
      body[field.storedName] = this.encodeValue(field, values[field.member]);
    }
    body[TYPE_PROPERTY] = this.entity.name;
    return body;
  }

  /** Entity values (member → value) of a stored item. */
  decode(item: Record<string, unknown>): Record<string, unknown> {
    const values: Record<string, unknown> = {};
    for (const field of this.entity.fields) {
      const raw = item[field.storedName];
      if (raw === undefined) continue;
      values[field.member] = raw === null ? null : decodeValue(field, raw);
    }
    return values;
  }

  /** True when the item was written for this entity (always true in an unshared container). */
  owns(item: Record<string, unknown>): boolean {
    return !this.layout.shared || item[TYPE_PROPERTY] === this.entity.name;
  }

  /** The stored form of a member value, as used in query parameters. */
  queryValue(member: string, value: unknown): unknown {
    const field = this.field(member);
    if (value === null || value === undefined) return null;
    if (field.storedName === 'id') return this.keyPart(member, value);
    return this.encodeValue(field, value);
  }

  storedName(member: string): string {
    return this.field(member).storedName;
  }

  private idOf(values: Record<string, unknown>): string {
    const parts = this.layout.idMembers.map((m) => this.keyPart(m, values[m]));
    // One member: the id is its value, readable in the portal. Several: each part percent-encoded
    // and joined with '|', which encodeURIComponent always escapes, so the join is unambiguous.
    const id = parts.length === 1 ? String(parts[0]) : parts.map((p) => encodeURIComponent(String(p))).join('|');
    if (id === '' || id.length > MAX_ID_LENGTH || FORBIDDEN_ID_CHARACTERS.test(id)) {
      throw new LifespanError('COSMOS_BAD_ID', `item id ${showValue(id)} is not allowed by Cosmos DB`, {
        entity: this.entity.name,
        member: this.layout.idMembers.join(', '),
        store: STORE,
        hint: `an id must be 1–${MAX_ID_LENGTH} characters without '/', '\\\\', '?' or '#'`,
      });
    }
    return id;
  }

  /**
   * A key member's part of the address. A key argument reaches here complete (the shared key rules
   * refused a missing member first); a record written without one is VALUE_INVALID, as everywhere.
   */
  private keyPart(member: string, value: unknown): PartitionValue {
    const encoded = this.encodeValue(this.field(member), value, true);
    // A numeric partition key stays a number: the partition key value must equal the stored property.
    if (typeof encoded === 'number' && member === this.layout.partitionMember) return encoded;
    return String(encoded);
  }

  /** Checked by the store-neutral checker, then in JSON's form: dates, bigints and bytes as strings. */
  private encodeValue(field: FieldModel, value: unknown, key = false): unknown {
    const place = { entity: this.entity.name, member: field.member, store: STORE, key };
    const checked = checkValue(field.type, field.nullable, value, place);
    if (checked === null) return null;
    switch (field.type) {
      case 'bigint':
        return (checked as bigint).toString();
      case 'date':
        return (checked as Date).toISOString();
      case 'binary':
        return Buffer.from(checked as Uint8Array).toString('base64');
      case 'string':
      case 'number':
      case 'integer':
      case 'boolean':
      case 'uuid':
      case 'json':
      case 'counter':
        // JSON holds these as they are.
        return checked;
      default: {
        const unhandled: never = field.type;
        return unhandled;
      }
    }
  }

  private field(member: string): FieldModel {
    const field = fieldOf(this.entity, member);
    if (!field) {
      throw unknownMember(
        member,
        this.entity.fields.map((f) => f.member),
        { entity: this.entity.name, store: STORE },
      );
    }
    return field;
  }
}

function decodeValue(field: FieldModel, raw: unknown): unknown {
  switch (field.type) {
    case 'date':
      return typeof raw === 'string' ? new Date(raw) : raw;
    case 'bigint':
      return typeof raw === 'string' || typeof raw === 'number' ? BigInt(raw) : raw;
    case 'binary':
      return typeof raw === 'string' ? Buffer.from(raw, 'base64') : raw;
    case 'number':
    case 'integer':
    case 'counter':
      return typeof raw === 'string' && field.storedName === 'id' ? Number(raw) : raw;
    case 'string':
    case 'boolean':
    case 'uuid':
    case 'json':
      return raw;
    default: {
      const unhandled: never = field.type;
      return unhandled;
    }
  }
}
