import 'server-only';
// Beneficiaries: #7 deleting one; extension: the wallet's list.
import { and, asc, eq, isNull } from 'drizzle-orm';
import { schemas } from '@/lib/custody/schemas';
import { notFound } from '../context';
import { sandboxBeneficiaries } from '../db/schema';
import { beneficiaryApi } from '../serialize';
import { endpoint } from './endpoint';
import { pagedList, selectPage } from './paging';
import { isUuidLike } from './shared';

export const beneficiaryEndpoints = [
  endpoint({
    method: 'DELETE',
    pattern: '/v1/wallets/:walletId/beneficiaries/:id',
    summary: '#7 Delete a beneficiary',
    response: { data: schemas.beneficiary },
    async handle({ core }, { wallet, params }) {
      const id = params.id ?? '';
      if (!isUuidLike(id)) throw notFound('Beneficiary');
      const at = core.stamp();
      const [row] = await core.db
        .update(sandboxBeneficiaries)
        .set({ deletedAt: at, updatedAt: at, isActive: false })
        .where(
          and(
            eq(sandboxBeneficiaries.id, id),
            eq(sandboxBeneficiaries.walletId, wallet.id),
            isNull(sandboxBeneficiaries.deletedAt),
          ),
        )
        .returning();
      if (!row) throw notFound('Beneficiary');
      core.options.onCatalogChanged();
      return { data: beneficiaryApi(row), message: 'Beneficiary deleted successfully' };
    },
  }),
  endpoint({
    method: 'GET',
    pattern: '/v1/wallets/:walletId/beneficiaries',
    summary: "Extension: list a wallet's beneficiaries",
    response: { data: schemas.beneficiary, paged: true },
    query: ['page', 'limit'],
    handle({ core }, { wallet, query }) {
      return pagedList(
        query,
        'Beneficiaries fetched successfully',
        (window) =>
          selectPage(
            core.db,
            sandboxBeneficiaries,
            and(eq(sandboxBeneficiaries.walletId, wallet.id), isNull(sandboxBeneficiaries.deletedAt)),
            [asc(sandboxBeneficiaries.createdAt), asc(sandboxBeneficiaries.id)],
            window,
          ),
        beneficiaryApi,
      );
    },
  }),
];
