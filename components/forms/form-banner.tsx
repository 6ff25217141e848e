import { Alert, AlertDescription } from '@/components/ui/alert';

/** The action's message above a form's fields, when it refused; nothing otherwise. */
export function FormBanner({ message, className }: { message: string | null; className?: string }) {
  if (!message) return null;
  return (
    <Alert variant="destructive" className={className}>
      <AlertDescription>{message}</AlertDescription>
    </Alert>
  );
}
