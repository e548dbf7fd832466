/* list.h — the runtime's one intrusive doubly linked list: circular through a sentinel head, so
 * that adding and removing have no special cases. An element embeds a list_t and is found again
 * with LIST_ENTRY; a removed link is NULLed, so list_linked() tells whether it is on a list. */
#ifndef RMP_LIST_H
#define RMP_LIST_H

#include <stdbool.h>
#include <stddef.h>

typedef struct list {
    struct list *next, *prev;
} list_t;

static inline void list_init(list_t *head)
{
    head->next = head->prev = head;
}

static inline bool list_empty(const list_t *head)
{
    return head->next == head;
}

static inline bool list_linked(const list_t *n)
{
    return n->next != NULL;
}

static inline void list_push_front(list_t *head, list_t *n)
{
    n->next = head->next;
    n->prev = head;
    head->next->prev = n;
    head->next = n;
}

static inline void list_push_back(list_t *head, list_t *n)
{
    list_push_front(head->prev, n);
}

static inline void list_remove(list_t *n)
{
    n->prev->next = n->next;
    n->next->prev = n->prev;
    n->next = n->prev = NULL;
}

#define LIST_ENTRY(ptr, type, member) ((type *)(void *)((char *)(ptr) - offsetof(type, member)))

/* Every element, in order; the current one may be removed (it, nx: list_t pointers). */
#define LIST_FOR_EACH_SAFE(head, it, nx)                                                        \
    for ((it) = (head)->next, (nx) = (it)->next; (it) != (head); (it) = (nx), (nx) = (it)->next)

#endif
