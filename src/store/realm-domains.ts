import type { Db } from './db.js';

export interface RealmDomain {
  domain: string;
  allow_subdomains: boolean;
}

export async function listRealmDomains(db: Db, realmId: number): Promise<RealmDomain[]> {
  const rows = await db.selectFrom('realm_domains').selectAll().where('realm_id', '=', realmId).orderBy('domain').execute();
  return rows.map((r) => ({ domain: r.domain, allow_subdomains: r.allow_subdomains === 1 }));
}

export async function insertRealmDomain(db: Db, realmId: number, d: RealmDomain): Promise<number> {
  const row = await db
    .insertInto('realm_domains')
    .values({ realm_id: realmId, domain: d.domain, allow_subdomains: d.allow_subdomains ? 1 : 0 })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

// The number of rows changed: 0 when the organization has no such domain.
export async function updateRealmDomain(db: Db, realmId: number, d: RealmDomain): Promise<number> {
  const r = await db
    .updateTable('realm_domains')
    .set({ allow_subdomains: d.allow_subdomains ? 1 : 0 })
    .where('realm_id', '=', realmId)
    .where('domain', '=', d.domain)
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
}

export async function deleteRealmDomain(db: Db, realmId: number, domain: string): Promise<number> {
  const r = await db.deleteFrom('realm_domains').where('realm_id', '=', realmId).where('domain', '=', domain).executeTakeFirst();
  return Number(r.numDeletedRows);
}
