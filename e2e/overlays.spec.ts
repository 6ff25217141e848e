import { contextAs, expect, test } from './fixtures';

// Menus and dialogs render a plain trigger until first opened, then load their code: they must open from the
// keyboard on that first use as on later ones, and give the focus back to their trigger when closed.
test('a menu and a dialog open on first use from the keyboard and give the focus back', async ({
  browser,
}) => {
  const { page, context } = await contextAs(browser, 'admin');
  const menuButton = page.getByRole('button', { name: /User menu/ });
  await expect(menuButton).toHaveAttribute('aria-haspopup', 'menu');
  await expect(menuButton).toHaveAttribute('aria-expanded', 'false');
  await expect(page.getByRole('menu')).toHaveCount(0);

  await menuButton.focus();
  await page.keyboard.press('Enter');
  const menu = page.getByRole('menu');
  await expect(menu.getByRole('menuitem', { name: 'Sessions' })).toBeVisible();
  // The open menu is modal: the rest of the page, its button included, is hidden from assistive technology.
  await expect(page.getByRole('button', { name: /User menu/, includeHidden: true })).toHaveAttribute(
    'aria-expanded',
    'true',
  );
  await page.keyboard.press('Escape');
  await expect(menu).toHaveCount(0);
  await expect(menuButton).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(menu.getByRole('menuitem', { name: 'Security' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(menu).toHaveCount(0);

  await page.goto('/admin/users');
  const add = page.getByRole('button', { name: 'Add user' });
  await expect(add).toHaveAttribute('aria-haspopup', 'dialog');
  await add.focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: /Add user/ });
  await expect(dialog.getByLabel('Email')).toBeVisible();
  // The form validates with zod loaded on this first check: an empty email is refused at the field.
  await dialog.getByRole('button', { name: 'Request user' }).click();
  await expect(dialog.getByLabel('Email')).toHaveAttribute('aria-invalid', 'true');
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(add).toBeFocused();
  await context.close();
});
