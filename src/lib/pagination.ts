/** A list page as every list endpoint answers it (conventions.md). */
export function page<T>(data: T[], total: number, pageNo: number, take: number) {
  return { data, page: pageNo, take, total, totalPages: Math.ceil(total / take) };
}
