'use client';
import { BellIcon, KeyRoundIcon, LaptopIcon, LogOutIcon, UserIcon } from 'lucide-react';
import { useTransition } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { Link } from '@/components/ui/link';
import { signOutAction } from '@/lib/actions/session';

export function UserMenu({ name, email, role }: { name: string; email: string; role: string }) {
  const [pending, startTransition] = useTransition();
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="outline" size="sm" aria-label={`User menu for ${name}`}>
          <UserIcon aria-hidden />
          <span className="hidden sm:inline">{name}</span>
          <Badge variant="secondary" className="hidden sm:inline-flex">
            {role}
          </Badge>
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end">
        <DropdownMenuLabel>
          <div>{name}</div>
          <div className="text-xs font-normal text-muted-foreground">{email}</div>
          <div className="text-xs font-normal text-muted-foreground">Role: {role}</div>
        </DropdownMenuLabel>
        <DropdownMenuSeparator />
        <DropdownMenuItem asChild>
          <Link href="/account/sessions">
            <LaptopIcon aria-hidden />
            Sessions
          </Link>
        </DropdownMenuItem>
        <DropdownMenuItem asChild>
          <Link href="/account/security">
            <KeyRoundIcon aria-hidden />
            Security
          </Link>
        </DropdownMenuItem>
        <DropdownMenuItem asChild>
          <Link href="/account/alerts">
            <BellIcon aria-hidden />
            Alerts
          </Link>
        </DropdownMenuItem>
        <DropdownMenuItem disabled={pending} onSelect={() => startTransition(() => signOutAction())}>
          <LogOutIcon aria-hidden />
          Sign out
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
